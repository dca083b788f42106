/*
 * xfs: XFS_IOC_FSGEOMETRY on the mount point (<xfs/xfs_fs.h>, xfslibs-dev;
 * any user may ask): block size, UUID, sunit and swidth, the log and
 * where it is; logbsize= and logdev= from the mount options.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef CLYDE_HAVE_XFS_H
#include <xfs/xfs.h>
#endif

#include "env/stack_probe.h"
#include "env/stack_sysfs.h"

static bool xfs_claims(const char *type)
{
	return !strcmp(type, "xfs");
}

/* A size option such as logbsize=256k, in bytes. */
static uint32_t size_opt(const char *opts, const char *key)
{
	char v[32], *end;
	unsigned long n;

	if (!clyde_stack_mount_opt(opts, key, v, sizeof(v)))
		return 0;
	n = strtoul(v, &end, 10);
	if (*end == 'k' || *end == 'K')
		n *= 1024;
	else if (*end == 'm' || *end == 'M')
		n *= 1024 * 1024;
	return (uint32_t)n;
}

static void xfs_read(struct clyde_stack_fs *fs)
{
	char logdev[256];
#ifdef CLYDE_HAVE_XFS_H
	struct xfs_fsop_geom g;
	int fd = open(fs->mount_point, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = -1;

	memset(&g, 0, sizeof(g));
	if (fd >= 0) {
		rc = ioctl(fd, XFS_IOC_FSGEOMETRY, &g);
		/* Kernels before 5.1 know only the first version, a prefix
		 * of the current structure. */
		if (rc != 0 && errno == ENOTTY)
			rc = ioctl(fd, XFS_IOC_FSGEOMETRY_V1, &g);
		if (rc != 0)
			clyde_stack_fs_note(fs, "XFS_IOC_FSGEOMETRY on %s: %s",
					    fs->mount_point, strerror(errno));
		close(fd);
	} else {
		clyde_stack_fs_note(fs, "open %s: %s", fs->mount_point,
				    strerror(errno));
	}
	if (rc == 0) {
		fs->block_size = g.blocksize;
		clyde_stack_uuid_text(g.uuid, fs->uuid, sizeof(fs->uuid));
		fs->stride_blocks = g.sunit;
		fs->stripe_width_blocks = g.swidth;
		fs->stripe_unit_bytes = (uint64_t)g.sunit * g.blocksize;
		fs->stripe_width_bytes = (uint64_t)g.swidth * g.blocksize;
		fs->log_bytes = (uint64_t)g.logblocks * g.blocksize;
		fs->log_sector_size = g.logsectsize;
		fs->rtextsize_bytes = (uint64_t)g.rtextsize * g.blocksize;
		fs->journal = g.logstart == 0 ? CLYDE_JOURNAL_EXTERNAL :
						CLYDE_JOURNAL_INTERNAL;
	}
#else
	clyde_stack_fs_note(fs,
			    "xfs geometry unavailable: clyde was built without "
			    "<xfs/xfs_fs.h> (apt-get install xfslibs-dev)");
#endif
	fs->logbsize = size_opt(fs->mount_opts, "logbsize");
	if (clyde_stack_mount_opt(fs->mount_opts, "logdev", logdev,
				  sizeof(logdev))) {
		const char *s = strrchr(logdev, '/');
		struct stat st;

		fs->journal = CLYDE_JOURNAL_EXTERNAL;
		if (stat(logdev, &st) == 0 && S_ISBLK(st.st_mode))
			clyde_stack_dev_name(st.st_rdev, fs->journal_dev,
					     sizeof(fs->journal_dev));
		else
			clyde_stack_copy(fs->journal_dev,
					 sizeof(fs->journal_dev),
					 s ? s + 1 : logdev);
	}
}

static void xfs_text(FILE *f, const struct clyde_stack_fs *fs)
{
	char a[32], b[32];

	if (!fs->block_size)
		return;
	fprintf(f, "  sunit %u (%s), swidth %u (%s)\n", fs->stride_blocks,
		clyde_stack_fmt_bytes(a, sizeof(a), fs->stripe_unit_bytes),
		fs->stripe_width_blocks,
		clyde_stack_fmt_bytes(b, sizeof(b), fs->stripe_width_bytes));
	fprintf(f, "  log %s, sector %u",
		clyde_stack_fmt_bytes(a, sizeof(a), fs->log_bytes),
		fs->log_sector_size);
	if (fs->logbsize)
		fprintf(f, ", logbsize %s",
			clyde_stack_fmt_bytes(a, sizeof(a), fs->logbsize));
	fputc('\n', f);
}

static void get_log(const struct clyde_stack_fs *fs, char *b, size_t l)
{
	b[0] = '\0';
	if (fs->log_bytes)
		clyde_stack_fmt_bytes(b, l, fs->log_bytes);
}

static void get_logbsize(const struct clyde_stack_fs *fs, char *b, size_t l)
{
	b[0] = '\0';
	if (fs->logbsize)
		clyde_stack_fmt_bytes(b, l, fs->logbsize);
}

#define F(key, type, member) \
	CLYDE_STACK_FIELD(key, type, struct clyde_stack_fs, member)
static const struct clyde_stack_field xfs_fields[] = {
	F("log_bytes", U64, log_bytes),
	F("log_sector_size", U32, log_sector_size),
	F("logbsize", U32, logbsize),
	F("rtextsize_bytes", U64, rtextsize_bytes),
};

static const struct clyde_stack_fs_fact xfs_facts[] = {
	{ "log size", get_log },
	{ "logbsize", get_logbsize },
};

const struct clyde_stack_fs_kind clyde_fs_xfs = {
	.name = "xfs",
	.claims = xfs_claims,
	.read = xfs_read,
	.fields = xfs_fields,
	.nfields = CLYDE_STACK_NFIELDS(xfs_fields),
	.fields_everywhere = true,
	.text = xfs_text,
	.journal_word = "log",
	.facts = xfs_facts,
	.nfacts = CLYDE_STACK_NFIELDS(xfs_facts),
};

/*
 * NFS (nfs, nfs4): the server, the export and the options the client and
 * server agreed on, from the mount's "opts:" line in /proc/self/mountstats
 * (every option, defaults included; the mount's own options when it has
 * none).  When the server is this machine (its address is a loopback or
 * one of this machine's), the export's options come from
 * /var/lib/nfs/etab (what exportfs gave the kernel; /proc/fs/nfsd/exports
 * when there is none), nfsd's largest block from
 * /proc/fs/nfsd/max_block_size, and the exported directory's devices are
 * the stack below the mount.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "env/env.h"
#include "env/stack_probe.h"
#include "env/stack_sysfs.h"

static bool nfs_claims(const char *type)
{
	return !strcmp(type, "nfs") || !strcmp(type, "nfs4");
}

static uint32_t opt_u32(const char *opts, const char *key, uint32_t dflt)
{
	char v[32];

	if (!clyde_stack_mount_opt(opts, key, v, sizeof(v)))
		return dflt;
	return (uint32_t)strtoul(v, NULL, 10);
}

static void opt_str(const char *opts, const char *key, char *out, size_t n,
		    const char *dflt)
{
	if (!clyde_stack_mount_opt(opts, key, out, n))
		clyde_stack_copy(out, n, dflt);
}

/* The "opts:" line of mount point mp in ROOT/proc/self/mountstats. */
static bool mountstats_opts(const char *root, const char *mp, char *out,
			    size_t n)
{
	char path[PATH_MAX], line[4096];
	bool in = false, found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/self/mountstats", root);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *on = strstr(line, " mounted on ");
		char *with = on ? strstr(on, " with fstype ") : NULL;
		char *p = line + strspn(line, " \t");

		if (!strncmp(line, "device ", 7)) {
			in = false;
			if (!with)
				continue;
			*with = '\0';
			clyde_mountinfo_unescape(on + 12);
			in = !strcmp(on + 12, mp);
		} else if (in && !strncmp(p, "opts:", 5)) {
			p += 5;
			p += strspn(p, " \t");
			p[strcspn(p, "\n")] = '\0';
			clyde_stack_copy(out, n, p);
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* Server and path of a source "host:/path" or "[v6]:/path". */
static void split_source(struct clyde_stack_fs *fs)
{
	const char *src = fs->source, *colon;

	if (src[0] == '[') {
		const char *end = strchr(src, ']');

		colon = end ? strchr(end, ':') : NULL;
		if (end)
			snprintf(fs->nfs_server, sizeof(fs->nfs_server), "%.*s",
				 (int)(end - src - 1), src + 1);
	} else {
		colon = strchr(src, ':');
		if (colon)
			snprintf(fs->nfs_server, sizeof(fs->nfs_server), "%.*s",
				 (int)(colon - src), src);
	}
	clyde_stack_copy(fs->nfs_export, sizeof(fs->nfs_export),
			 colon ? colon + 1 : src);
}

#define MAX_EXPORTS 64

struct export_line {
	char dir[512];
	char opts[512];
};

/* The exports of ROOT/var/lib/nfs/etab, else ROOT/proc/fs/nfsd/exports:
 * "DIR<tab>CLIENT(OPTS)" lines. */
static size_t read_exports(const char *root, struct export_line *e, size_t max)
{
	static const char *const files[] = { "var/lib/nfs/etab",
					     "proc/fs/nfsd/exports" };
	char path[PATH_MAX], line[2048];
	size_t n = 0;

	for (size_t k = 0; k < 2 && n == 0; k++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", root, files[k]);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (n < max && fgets(line, sizeof(line), f)) {
			char *sp = line + strcspn(line, " \t\n");
			char *open, *close;

			if (line[0] != '/' || !*sp)
				continue;
			*sp = '\0';
			open = strchr(sp + 1, '(');
			close = open ? strrchr(open, ')') : NULL;
			if (!close)
				continue;
			*close = '\0';
			clyde_mountinfo_unescape(line);
			clyde_stack_copy(e[n].dir, sizeof(e[n].dir), line);
			clyde_stack_copy(e[n].opts, sizeof(e[n].opts),
					 open + 1);
			n++;
		}
		fclose(f);
	}
	return n;
}

/* The export this mount reads, when the server is this machine.  NFSv4
 * paths start at the export marked fsid=0 (the pseudo root), when there
 * is one. */
static void read_export(const char *root, struct clyde_stack_fs *fs)
{
	struct export_line *e = calloc(MAX_EXPORTS, sizeof(*e));
	size_t n = e ? read_exports(root, e, MAX_EXPORTS) : 0;
	char dir[1024], v4root[512] = "";
	size_t best = 0;
	int pick = -1;

	if (fs->nfs_version[0] == '4')
		for (size_t i = 0; i < n; i++) {
			char fsid[32];

			if (clyde_stack_mount_opt(e[i].opts, "fsid", fsid,
						  sizeof(fsid)) &&
			    (!strcmp(fsid, "0") || !strcmp(fsid, "root")))
				clyde_stack_copy(v4root, sizeof(v4root),
						 e[i].dir);
		}
	if (v4root[0] && strcmp(v4root, "/"))
		snprintf(dir, sizeof(dir), "%s%s", v4root,
			 strcmp(fs->nfs_export, "/") ? fs->nfs_export : "");
	else
		clyde_stack_copy(dir, sizeof(dir), fs->nfs_export);
	for (size_t i = 0; i < n; i++)
		if (clyde_stack_path_under(dir, e[i].dir) &&
		    strlen(e[i].dir) + 1 > best) {
			best = strlen(e[i].dir) + 1;
			pick = (int)i;
		}
	if (pick < 0) {
		clyde_stack_fs_note(fs,
				    "the server is this machine but no "
				    "export holds %.400s",
				    dir);
		free(e);
		return;
	}
	clyde_stack_copy(fs->nfs_export_dir, sizeof(fs->nfs_export_dir), dir);
	clyde_stack_copy(fs->nfs_export_opts, sizeof(fs->nfs_export_opts),
			 e[pick].opts);
	clyde_stack_copy(fs->nfs_export_sync, sizeof(fs->nfs_export_sync),
			 clyde_stack_mount_flag(e[pick].opts, "async") ?
				 "async" :
			 clyde_stack_mount_flag(e[pick].opts, "sync") ? "sync" :
									"");
	clyde_stack_fstype_at(root, dir, fs->nfs_export_fstype,
			      sizeof(fs->nfs_export_fstype));
	free(e);
}

void clyde_nfs_read_at(const char *root, struct clyde_stack_fs *fs)
{
	char opts[sizeof(fs->mount_opts)];
	char path[PATH_MAX], buf[64];
	FILE *f;

	if (!mountstats_opts(root, fs->mount_point, opts, sizeof(opts))) {
		clyde_stack_copy(opts, sizeof(opts), fs->mount_opts);
		clyde_stack_fs_note(fs,
				    "%.400s is not in /proc/self/mountstats: "
				    "the defaults are not known",
				    fs->mount_point);
	}
	split_source(fs);
	opt_str(opts, "vers", fs->nfs_version, sizeof(fs->nfs_version),
		!strcmp(fs->type, "nfs4") ? "4" : "");
	opt_str(opts, "proto", fs->nfs_proto, sizeof(fs->nfs_proto), "");
	/* The server's address is in mountinfo's options, not in
	 * mountstats'. */
	if (!clyde_stack_mount_opt(fs->mount_opts, "addr", fs->nfs_addr,
				   sizeof(fs->nfs_addr)))
		opt_str(opts, "addr", fs->nfs_addr, sizeof(fs->nfs_addr), "");
	fs->nfs_rsize = opt_u32(opts, "rsize", 0);
	fs->nfs_wsize = opt_u32(opts, "wsize", 0);
	fs->nfs_nconnect = opt_u32(opts, "nconnect", 1);
	opt_str(opts, "sec", fs->nfs_sec, sizeof(fs->nfs_sec), "");
	clyde_stack_copy(fs->nfs_recovery, sizeof(fs->nfs_recovery),
			 clyde_stack_mount_flag(opts, "softerr") ? "softerr" :
			 clyde_stack_mount_flag(opts, "soft")	 ? "soft" :
								   "hard");
	fs->nfs_acregmin = opt_u32(opts, "acregmin", 3);
	fs->nfs_acregmax = opt_u32(opts, "acregmax", 60);
	fs->nfs_acdirmin = opt_u32(opts, "acdirmin", 30);
	fs->nfs_acdirmax = opt_u32(opts, "acdirmax", 60);
	if (clyde_stack_mount_flag(opts, "noac"))
		fs->nfs_acregmin = fs->nfs_acregmax = fs->nfs_acdirmin =
			fs->nfs_acdirmax = 0;
	opt_str(opts, "lookupcache", fs->nfs_lookupcache,
		sizeof(fs->nfs_lookupcache), "all");
	opt_str(opts, "local_lock", fs->nfs_local_lock,
		sizeof(fs->nfs_local_lock), "none");
	clyde_stack_copy(fs->nfs_cto, sizeof(fs->nfs_cto),
			 clyde_stack_mount_flag(opts, "nocto") ? "nocto" :
								 "cto");
	fs->nfs_local = clyde_stack_addr_is_local(root, fs->nfs_addr);
	if (fs->nfs_local != 1)
		return;
	snprintf(path, sizeof(path), "%s/proc/fs/nfsd/max_block_size", root);
	f = fopen(path, "re");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			fs->nfs_server_max = (uint32_t)strtoul(buf, NULL, 10);
		fclose(f);
	}
	read_export(root, fs);
}

static void nfs_read(struct clyde_stack_fs *fs)
{
	clyde_nfs_read_at("", fs);
}

/* A local server: the exported directory's devices are the stack. */
static void nfs_devices(struct clyde_stack_walk *w)
{
	const struct clyde_stack_fs *fs = &w->s->fs;
	struct stat st;
	char name[64];

	if (w->root[0] || fs->nfs_local != 1 || !fs->nfs_export_dir[0] ||
	    stat(fs->nfs_export_dir, &st) != 0 || major(st.st_dev) == 0)
		return;
	clyde_stack_dev_name(st.st_dev, name, sizeof(name));
	clyde_stack_add_top(w, name);
}

static void nfs_text(FILE *f, const struct clyde_stack_fs *fs)
{
	char r[32], wz[32];

	fprintf(f, "  NFS %s over %s from %s%s, export %s\n",
		fs->nfs_version[0] ? fs->nfs_version : "?",
		fs->nfs_proto[0] ? fs->nfs_proto : "?", fs->nfs_server,
		fs->nfs_local == 1 ? " (this machine)" : "", fs->nfs_export);
	fprintf(f,
		"  rsize %s, wsize %s, nconnect %u, sec %s, %s, acreg "
		"%u-%u s, acdir %u-%u s, lookupcache %s, local_lock %s, %s\n",
		clyde_stack_fmt_bytes(r, sizeof(r), fs->nfs_rsize),
		clyde_stack_fmt_bytes(wz, sizeof(wz), fs->nfs_wsize),
		fs->nfs_nconnect, fs->nfs_sec[0] ? fs->nfs_sec : "?",
		fs->nfs_recovery, fs->nfs_acregmin, fs->nfs_acregmax,
		fs->nfs_acdirmin, fs->nfs_acdirmax, fs->nfs_lookupcache,
		fs->nfs_local_lock, fs->nfs_cto);
	if (fs->nfs_export_dir[0])
		fprintf(f, "  exported %s (%s): %s\n", fs->nfs_export_dir,
			fs->nfs_export_fstype[0] ? fs->nfs_export_fstype : "?",
			fs->nfs_export_opts);
	if (fs->nfs_server_max)
		fprintf(f, "  server's largest block %s\n",
			clyde_stack_fmt_bytes(r, sizeof(r),
					      fs->nfs_server_max));
}

#define GET(fn, fmt, ...)                                                  \
	static void fn(const struct clyde_stack_fs *fs, char *b, size_t l) \
	{                                                                  \
		snprintf(b, l, fmt, __VA_ARGS__);                          \
	}
GET(get_version, "%s", fs->nfs_version)
GET(get_proto, "%s", fs->nfs_proto)
GET(get_rsize, "%u", fs->nfs_rsize)
GET(get_wsize, "%u", fs->nfs_wsize)
GET(get_nconnect, "%u", fs->nfs_nconnect)
GET(get_sec, "%s", fs->nfs_sec)
GET(get_recovery, "%s", fs->nfs_recovery)
GET(get_ac, "acreg %u-%u s, acdir %u-%u s", fs->nfs_acregmin, fs->nfs_acregmax,
    fs->nfs_acdirmin, fs->nfs_acdirmax)
GET(get_cto, "%s", fs->nfs_cto)
GET(get_server, "%s",
    fs->nfs_local == 1 ? "this machine" :
    fs->nfs_local == 0 ? "remote" :
			 "?")
GET(get_export, "%s", fs->nfs_export_sync[0] ? fs->nfs_export_sync : "?")

#define F(key, type, member) \
	CLYDE_STACK_FIELD(key, type, struct clyde_stack_fs, member)

static const struct clyde_stack_field nfs_fields[] = {
	F("nfs_server", STR, nfs_server),
	F("nfs_addr", STR, nfs_addr),
	F("nfs_export", STR, nfs_export),
	F("nfs_version", STR, nfs_version),
	F("nfs_proto", STR, nfs_proto),
	F("nfs_rsize", U32, nfs_rsize),
	F("nfs_wsize", U32, nfs_wsize),
	F("nfs_nconnect", U32, nfs_nconnect),
	F("nfs_sec", STR, nfs_sec),
	F("nfs_recovery", STR, nfs_recovery),
	F("nfs_acregmin", U32, nfs_acregmin),
	F("nfs_acregmax", U32, nfs_acregmax),
	F("nfs_acdirmin", U32, nfs_acdirmin),
	F("nfs_acdirmax", U32, nfs_acdirmax),
	F("nfs_lookupcache", STR, nfs_lookupcache),
	F("nfs_local_lock", STR, nfs_local_lock),
	F("nfs_cto", STR, nfs_cto),
	F("nfs_local", INT, nfs_local),
	F("nfs_server_max", U32, nfs_server_max),
	F("nfs_export_dir", STR, nfs_export_dir),
	F("nfs_export_opts", STR, nfs_export_opts),
	F("nfs_export_sync", STR, nfs_export_sync),
	F("nfs_export_fstype", STR, nfs_export_fstype),
};

static const struct clyde_stack_fs_fact nfs_facts[] = {
	{ "nfs version", get_version },	  { "nfs proto", get_proto },
	{ "nfs rsize", get_rsize },	  { "nfs wsize", get_wsize },
	{ "nfs nconnect", get_nconnect }, { "nfs sec", get_sec },
	{ "nfs recovery", get_recovery }, { "nfs attribute cache", get_ac },
	{ "nfs cto", get_cto },		  { "nfs server", get_server },
	{ "nfs export", get_export },
};

const struct clyde_stack_fs_kind clyde_fs_nfs = {
	.name = "nfs",
	.claims = nfs_claims,
	.read = nfs_read,
	.devices = nfs_devices,
	.fields = nfs_fields,
	.nfields = CLYDE_STACK_NFIELDS(nfs_fields),
	.text = nfs_text,
	.facts = nfs_facts,
	.nfacts = CLYDE_STACK_NFIELDS(nfs_facts),
};

/*
 * The SMB filesystem probe (env/fs_cifs.c) and the per-share counters
 * (io/cifs_wire.c) over fixture trees (tests/fixtures/cifs/, described in
 * its README): the guest's own vers=3.1.1 mount of a share of an ext4
 * served by smbd on the loopback; a made tree with a remote Kerberos
 * server, smbd's default smb.conf, a global sync always, a share with
 * strict sync = no and a mount with small rsize/wsize and cache=loose;
 * what `--advise` says of each; their text and facts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env/advise.h"
#include "env/stack_probe.h"
#include "env/stack_sysfs.h"
#include "io/cifs_wire.h"
#include "results/stack_out.h"
#include "tap.h"

#define FIX CLYDE_FIXTURES_DIR "/cifs/"

static void mount_in(struct clyde_stack *s, const char *tree, const char *type,
		     const char *mp, const char *source, const char *opts)
{
	memset(s, 0, sizeof(*s));
	s->has_fs = true;
	clyde_stack_copy(s->fs.type, sizeof(s->fs.type), type);
	clyde_stack_copy(s->fs.mount_point, sizeof(s->fs.mount_point), mp);
	clyde_stack_copy(s->fs.source, sizeof(s->fs.source), source);
	clyde_stack_copy(s->fs.mount_opts, sizeof(s->fs.mount_opts), opts);
	CHECK(clyde_stack_fs_kind_of(type) == &clyde_fs_cifs);
	clyde_cifs_read_at(tree, &s->fs);
}

static bool advised(const struct clyde_advice_list *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->items[i].id, id))
			return true;
	return false;
}

static const char *fact_of(const struct clyde_stack_fact *f, size_t n,
			   const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(f[i].key, key))
			return f[i].value;
	return NULL;
}

#define GUEST_OPTS                                                      \
	"rw,relatime | rw,vers=3.1.1,cache=strict,username=root,uid=0," \
	"noforceuid,gid=0,noforcegid,addr=127.0.0.1,file_mode=0755,"    \
	"dir_mode=0755,soft,nounix,serverino,mapposix,rsize=4194304,"   \
	"wsize=4194304,bsize=1048576,echo_interval=60,actimeo=1,closetimeo=1"

static void test_guest(void)
{
	struct clyde_stack s;
	struct clyde_advice_list l;
	struct clyde_stack_fact f[64];
	char *text = NULL;
	size_t len, n;
	FILE *mem;

	mount_in(&s, FIX "guest", "cifs", "/mnt/s", "//127.0.0.1/share",
		 GUEST_OPTS);
	CHECK_STR(s.fs.cifs_server, "127.0.0.1");
	CHECK_STR(s.fs.cifs_share, "share");
	CHECK_STR(s.fs.cifs_addr, "127.0.0.1");
	CHECK_STR(s.fs.cifs_dialect, "3.1.1");
	CHECK_STR(s.fs.cifs_sec, "ntlmssp"); /* DebugData's RawNTLMSSP */
	CHECK(s.fs.cifs_rsize == 4194304 && s.fs.cifs_wsize == 4194304);
	CHECK_STR(s.fs.cifs_cache, "strict");
	CHECK(s.fs.cifs_actimeo == 1);
	CHECK_STR(s.fs.cifs_recovery, "soft");
	CHECK(s.fs.cifs_multichannel == 0 && s.fs.cifs_channels == 1);
	CHECK(s.fs.cifs_nosharesock == 0);
	CHECK(s.fs.cifs_local == 1);
	CHECK_STR(s.fs.cifs_conf, "/tmp/smb/smb.conf");
	CHECK_STR(s.fs.cifs_share_dir, "/mnt/export/share");
	CHECK_STR(s.fs.cifs_share_sync, "strict");
	CHECK_STR(s.fs.cifs_share_fstype, "ext4");
	CHECK_STR(s.fs.note, "");

	clyde_advise(&s, 0, &l);
	CHECK(!advised(&l, "smb-flush-ignored"));
	CHECK(!advised(&l, "smb-rsize"));
	CHECK(!advised(&l, "smb-cache-loose"));
	CHECK(!advised(&l, "smb-cache-none"));
	CHECK(!advised(&l, "smb-dialect"));

	n = clyde_stack_facts(&s, f, 64);
	CHECK_STR(fact_of(f, n, "smb dialect"), "3.1.1");
	CHECK_STR(fact_of(f, n, "smb cache"), "strict");
	CHECK_STR(fact_of(f, n, "smb server"), "this machine");
	CHECK_STR(fact_of(f, n, "smb share sync"), "strict");
	CHECK_STR(fact_of(f, n, "smb rsize"), "4194304");

	mem = open_memstream(&text, &len);
	CHECK(mem != NULL);
	if (mem) {
		clyde_stack_text(mem, &s);
		fclose(mem);
		CHECK(strstr(text, "SMB 3.1.1 from 127.0.0.1 (this machine), "
				   "share share, sec ntlmssp\n") != NULL);
		CHECK(strstr(text,
			     "rsize 4 MiB, wsize 4 MiB, cache strict, "
			     "actimeo 1 s, soft, multichannel no") != NULL);
		CHECK(strstr(text,
			     "shared /mnt/export/share (ext4) by smbd "
			     "(/tmp/smb/smb.conf): flushes synced") != NULL);
		free(text);
	}

	/* The same mount as smb3 with the default dialect: DebugData's. */
	mount_in(&s, FIX "guest", "smb3", "/mnt/s", "//127.0.0.1/share",
		 "rw | rw,vers=default,addr=127.0.0.1,sec=krb5i");
	CHECK_STR(s.fs.cifs_dialect, "3.1.1");
	CHECK_STR(s.fs.cifs_sec, "krb5i");
	CHECK_STR(s.fs.cifs_recovery, "soft");
}

/* smbd without -s, a global sync always, a share named in another case,
 * small rsize/wsize, cache=loose, multichannel and nosharesock. */
static void test_made_local(void)
{
	struct clyde_stack s;
	struct clyde_advice_list l;
	struct clyde_stack_fact f[64];
	size_t n;

	mount_in(&s, FIX "made", "cifs", "/mnt/data", "//127.0.0.1/data",
		 "rw | rw,vers=3.1.1,cache=loose,username=u,addr=127.0.0.1,"
		 "hard,rsize=1048576,wsize=65536,actimeo=30,multichannel,"
		 "max_channels=4,nosharesock");
	CHECK_STR(s.fs.cifs_conf, "/etc/samba/smb.conf");
	CHECK_STR(s.fs.cifs_share_dir, "/srv/samba/data");
	CHECK_STR(s.fs.cifs_share_sync, "always");
	CHECK_STR(s.fs.cifs_share_fstype, "xfs");
	CHECK_STR(s.fs.cifs_cache, "loose");
	CHECK(s.fs.cifs_actimeo == 30);
	CHECK_STR(s.fs.cifs_recovery, "hard");
	CHECK(s.fs.cifs_multichannel == 1 && s.fs.cifs_channels == 4);
	CHECK(s.fs.cifs_nosharesock == 1);
	CHECK_STR(s.fs.cifs_sec, "ntlmssp"); /* the second server's */
	clyde_advise(&s, 0, &l);
	CHECK(advised(&l, "smb-cache-loose"));
	CHECK(advised(&l, "smb-rsize"));
	CHECK(!advised(&l, "smb-flush-ignored"));
	n = clyde_stack_facts(&s, f, 64);
	CHECK_STR(fact_of(f, n, "smb channels"), "multichannel, 4");
	CHECK_STR(fact_of(f, n, "smb socket"), "nosharesock");

	/* strict sync = no: flushes ignored, named first (bad). */
	mount_in(&s, FIX "made", "cifs", "/mnt/fast", "//127.0.0.1/fast",
		 "rw | rw,vers=3.1.1,cache=none,addr=127.0.0.1,"
		 "rsize=4194304,wsize=4194304");
	CHECK_STR(s.fs.cifs_share_dir, "/srv/samba/fast");
	CHECK_STR(s.fs.cifs_share_sync, "none");
	clyde_advise(&s, 0, &l);
	CHECK(l.n > 0 && !strcmp(l.items[0].id, "smb-flush-ignored") &&
	      l.items[0].severity == CLYDE_ADVICE_BAD);
	CHECK(advised(&l, "smb-cache-none"));
	CHECK(!advised(&l, "smb-rsize"));

	/* A share without a path, and one the file lacks: a note. */
	mount_in(&s, FIX "made", "cifs", "/mnt/n", "//127.0.0.1/nopath",
		 "rw | rw,vers=3.1.1,addr=127.0.0.1");
	CHECK_STR(s.fs.cifs_share_dir, "");
	CHECK(strstr(s.fs.note, "no share nopath") != NULL);
}

/* A remote server: Kerberos and SMB 3.0 from DebugData's first server;
 * nothing of the share; a mount DebugData lacks is noted. */
static void test_made_remote(void)
{
	struct clyde_stack s;
	struct clyde_advice_list l;

	mount_in(&s, FIX "made", "cifs", "/home/u", "//filer/home/u",
		 "rw | rw,vers=default,addr=192.0.2.20,rsize=65536,"
		 "wsize=65536");
	CHECK_STR(s.fs.cifs_server, "filer");
	CHECK_STR(s.fs.cifs_share, "home");
	CHECK_STR(s.fs.cifs_dialect, "3.0");
	CHECK_STR(s.fs.cifs_sec, "krb5");
	CHECK(s.fs.cifs_local == 0);
	CHECK_STR(s.fs.cifs_share_dir, "");
	CHECK_STR(s.fs.note, "");
	clyde_advise(&s, 0, &l);
	CHECK(advised(&l, "smb-rsize"));

	mount_in(&s, FIX "made", "cifs", "/mnt/old", "//nas/old",
		 "rw | rw,vers=1.0,addr=192.0.2.30,rsize=61440,wsize=65536");
	CHECK(strstr(s.fs.note, "not in /proc/fs/cifs/DebugData") != NULL);
	CHECK_STR(s.fs.cifs_dialect, "1.0");
	clyde_advise(&s, 0, &l);
	CHECK(advised(&l, "smb-dialect"));
	CHECK(!advised(&l, "smb-rsize"));
}

/* The guest's Stats: after the mount, then after a 4 MiB write with
 * fsync and its read. */
static void test_wire(void)
{
	static struct clyde_cifs_wire a, b, d;
	const struct clyde_cifs_op *op;

	CHECK(clyde_cifs_wire_read(FIX "nowhere", "x", "y", &a) == -ENOENT);
	CHECK(clyde_cifs_wire_read(FIX "guest", "127.0.0.1", "share", &b) == 0);
	CHECK(b.smbs == 26 && b.bytes_read == 4194304 &&
	      b.bytes_written == 4194304);
	CHECK(b.nops == 14);
	op = clyde_cifs_wire_op(&b, "Writes");
	CHECK(op && op->total == 1 && op->failed == 0);
	op = clyde_cifs_wire_op(&b, "OplockBreaks");
	CHECK(op && op->total == 0);
	CHECK(clyde_cifs_wire_read(FIX "guest", "127.0.0.1", "IPC$", &a) ==
	      -ENOENT);
	CHECK(clyde_cifs_wire_read(FIX "guest", "127.0.0.1", "SHARE", &a) == 0);
	CHECK(clyde_cifs_wire_read(FIX "made", "127.0.0.1", "share", &a) ==
	      -ENOENT);

	/* Right after the mount (guest-before). */
	CHECK(clyde_cifs_wire_read(FIX "guest-before", "127.0.0.1", "share",
				   &a) == 0);
	CHECK(a.smbs == 15 && a.bytes_read == 0 && a.bytes_written == 0);
	clyde_cifs_wire_diff(&a, &b, &d);
	CHECK(d.smbs == 11 && d.bytes_written == 4194304 &&
	      d.bytes_read == 4194304);
	op = clyde_cifs_wire_op(&d, "Creates");
	CHECK(op && op->total == 2);
	op = clyde_cifs_wire_op(&d, "Flushes");
	CHECK(op && op->total == 2);
	op = clyde_cifs_wire_op(&d, "Reads");
	CHECK(op && op->total == 2);
	op = clyde_cifs_wire_op(&d, "Writes");
	CHECK(op && op->total == 1);
	/* A request type only in `after` counts from zero. */
	a.nops--;
	clyde_cifs_wire_diff(&a, &b, &d);
	op = clyde_cifs_wire_op(&d, "OplockBreaks");
	CHECK(op && op->total == 0 && d.nops == 14);
	/* Nothing moved between two equal reads. */
	clyde_cifs_wire_diff(&b, &b, &d);
	CHECK(d.smbs == 0 && d.bytes_read == 0 && d.bytes_written == 0);
	/* A counter that went back counts 0. */
	clyde_cifs_wire_diff(&b, &a, &d);
	CHECK(d.smbs == 0 && d.bytes_written == 0);
}

int main(void)
{
	test_wire();
	test_guest();
	test_made_local();
	test_made_remote();
	return tap_done();
}

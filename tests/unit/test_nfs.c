/*
 * The NFS filesystem probe (env/fs_nfs.c) over fixture trees
 * (tests/fixtures/nfs/, described in its README): a v4.2 mount of an
 * async export served by this machine, a v4.1 mount of a sync export
 * whose path has a space, a remote v3 mount with soft, nocto and
 * Kerberos, and a mount mountstats does not list; what `--advise` says
 * of each; their text and facts; the wire counters and nfsd's threads'
 * CPU time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env/advise.h"
#include "env/stack_probe.h"
#include "env/stack_sysfs.h"
#include "io/nfs_wire.h"
#include "results/stack_out.h"
#include "tap.h"

#define FIX CLYDE_FIXTURES_DIR "/nfs/"

/* A stack whose filesystem is the mount at mp in fixture tree `tree`,
 * as the walker hands it to the probe. */
static void mount_in(struct clyde_stack *s, const char *tree, const char *type,
		     const char *mp, const char *source, const char *opts)
{
	memset(s, 0, sizeof(*s));
	s->has_fs = true;
	clyde_stack_copy(s->fs.type, sizeof(s->fs.type), type);
	clyde_stack_copy(s->fs.mount_point, sizeof(s->fs.mount_point), mp);
	clyde_stack_copy(s->fs.source, sizeof(s->fs.source), source);
	clyde_stack_copy(s->fs.mount_opts, sizeof(s->fs.mount_opts), opts);
	CHECK(clyde_stack_fs_kind_of(type) == &clyde_fs_nfs);
	clyde_nfs_read_at(tree, &s->fs);
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

static void test_local_v42_async(void)
{
	struct clyde_stack s;
	struct clyde_advice_list l;
	struct clyde_stack_fact f[64];
	char *text = NULL;
	size_t len, n;
	FILE *mem;

	mount_in(&s, FIX "local-v42", "nfs4", "/mnt/c", "127.0.0.1:/",
		 "rw,relatime | rw,vers=4.2,rsize=262144,wsize=262144,"
		 "namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,"
		 "clientaddr=127.0.0.1,local_lock=none,addr=127.0.0.1");
	CHECK_STR(s.fs.nfs_server, "127.0.0.1");
	CHECK_STR(s.fs.nfs_addr, "127.0.0.1");
	CHECK_STR(s.fs.nfs_export, "/");
	CHECK_STR(s.fs.nfs_version, "4.2");
	CHECK_STR(s.fs.nfs_proto, "tcp");
	CHECK(s.fs.nfs_rsize == 262144 && s.fs.nfs_wsize == 262144);
	CHECK(s.fs.nfs_nconnect == 1);
	CHECK_STR(s.fs.nfs_sec, "sys");
	CHECK_STR(s.fs.nfs_recovery, "hard");
	CHECK(s.fs.nfs_acregmin == 3 && s.fs.nfs_acregmax == 60);
	CHECK(s.fs.nfs_acdirmin == 30 && s.fs.nfs_acdirmax == 60);
	CHECK_STR(s.fs.nfs_lookupcache, "all");
	CHECK_STR(s.fs.nfs_local_lock, "none");
	CHECK_STR(s.fs.nfs_cto, "cto");
	CHECK(s.fs.nfs_local == 1);
	CHECK(s.fs.nfs_server_max == 524288);
	/* v4's "/" is the export marked fsid=0. */
	CHECK_STR(s.fs.nfs_export_dir, "/srv/nfs");
	CHECK_STR(s.fs.nfs_export_sync, "async");
	CHECK(strstr(s.fs.nfs_export_opts, ",wdelay,") != NULL);
	CHECK_STR(s.fs.nfs_export_fstype, "ext4");
	CHECK_STR(s.fs.note, "");

	clyde_advise(&s, 0, &l);
	CHECK(advised(&l, "nfs-async"));
	CHECK(l.n > 0 && !strcmp(l.items[0].id, "nfs-async") &&
	      l.items[0].severity == CLYDE_ADVICE_BAD);
	CHECK(advised(&l, "nfs-rsize"));
	CHECK(advised(&l, "nfs-nconnect"));
	CHECK(!advised(&l, "nfs-nocto"));

	n = clyde_stack_facts(&s, f, 64);
	CHECK_STR(fact_of(f, n, "nfs version"), "4.2");
	CHECK_STR(fact_of(f, n, "nfs export"), "async");
	CHECK_STR(fact_of(f, n, "nfs server"), "this machine");
	CHECK_STR(fact_of(f, n, "nfs rsize"), "262144");

	mem = open_memstream(&text, &len);
	CHECK(mem != NULL);
	if (mem) {
		clyde_stack_text(mem, &s);
		fclose(mem);
		CHECK(strstr(text, "NFS 4.2 over tcp from 127.0.0.1 (this "
				   "machine), export /\n") != NULL);
		CHECK(strstr(text, "rsize 256 KiB, wsize 256 KiB, nconnect "
				   "1, sec sys, hard") != NULL);
		CHECK(strstr(text, "exported /srv/nfs (ext4): rw,async,") !=
		      NULL);
		free(text);
	}
}

/* A path with a space (\040 in the kernel's files), nconnect, rsize at
 * the server's largest and a sync export: none of the advice. */
static void test_local_v41_sync(void)
{
	struct clyde_stack s;
	struct clyde_advice_list l;

	mount_in(&s, FIX "local-v42", "nfs4", "/mnt/d", "127.0.0.1:/my data",
		 "rw,relatime | rw,vers=4.1,rsize=524288,wsize=524288,"
		 "hard,proto=tcp,nconnect=4,sec=sys,addr=127.0.0.1");
	CHECK_STR(s.fs.nfs_version, "4.1");
	CHECK(s.fs.nfs_nconnect == 4);
	CHECK_STR(s.fs.nfs_export, "/my data");
	CHECK_STR(s.fs.nfs_export_dir, "/srv/nfs/my data");
	CHECK_STR(s.fs.nfs_export_sync, "sync");
	CHECK(strstr(s.fs.nfs_export_opts, "no_wdelay") != NULL);
	CHECK_STR(s.fs.nfs_export_fstype, "xfs");
	clyde_advise(&s, 0, &l);
	CHECK(!advised(&l, "nfs-async"));
	CHECK(!advised(&l, "nfs-rsize"));
	CHECK(!advised(&l, "nfs-nconnect"));
}

static void test_remote_v3(void)
{
	struct clyde_stack s;
	struct clyde_advice_list l;

	mount_in(&s, FIX "remote-v3", "nfs", "/home/u", "filer:/export/home",
		 "ro,relatime | ro,vers=3,rsize=65536,wsize=65536,soft,"
		 "nocto,proto=tcp,sec=krb5p,addr=192.0.2.10");
	CHECK_STR(s.fs.nfs_server, "filer");
	CHECK_STR(s.fs.nfs_export, "/export/home");
	CHECK_STR(s.fs.nfs_version, "3");
	CHECK_STR(s.fs.nfs_recovery, "soft");
	CHECK_STR(s.fs.nfs_cto, "nocto");
	CHECK_STR(s.fs.nfs_sec, "krb5p");
	CHECK(s.fs.nfs_nconnect == 4);
	CHECK(s.fs.nfs_acregmin == 10 && s.fs.nfs_acregmax == 600);
	CHECK_STR(s.fs.nfs_lookupcache, "pos");
	CHECK_STR(s.fs.nfs_local_lock, "all");
	CHECK(s.fs.nfs_local == 0);
	CHECK_STR(s.fs.nfs_export_dir, "");
	CHECK(s.fs.nfs_server_max == 0);
	clyde_advise(&s, 0, &l);
	CHECK(advised(&l, "nfs-nocto"));
	CHECK(!advised(&l, "nfs-async"));
	CHECK(!advised(&l, "nfs-nconnect"));
}

/* Not in mountstats: the mount's own options, and the note says the
 * defaults are unknown. */
static void test_not_in_mountstats(void)
{
	struct clyde_stack s;

	mount_in(&s, FIX "remote-v3", "nfs4", "/mnt/x", "[2001:db8::1]:/a",
		 "rw | rw,vers=4.0,rsize=1048576,wsize=1048576,softerr,"
		 "proto=tcp6,addr=2001:db8::1");
	CHECK_STR(s.fs.nfs_server, "2001:db8::1");
	CHECK_STR(s.fs.nfs_export, "/a");
	CHECK_STR(s.fs.nfs_version, "4.0");
	CHECK_STR(s.fs.nfs_proto, "tcp6");
	CHECK_STR(s.fs.nfs_recovery, "softerr");
	CHECK(s.fs.nfs_rsize == 1048576);
	CHECK(s.fs.nfs_local == 0);
	CHECK(strstr(s.fs.note, "not in /proc/self/mountstats") != NULL);
}

/* Text the guest's kernel and exportfs wrote (tests/vm/t_nfs.sh, kept
 * with vm.sh --keep): a v3 mount of the export's own path and a v4.2
 * mount of "/", the fsid=0 export, made async. */
static void test_guest_text(void)
{
	struct clyde_stack s;

	mount_in(&s, FIX "guest", "nfs", "/mnt/c3", "127.0.0.1:/mnt/export",
		 "rw,relatime | rw,vers=3,rsize=262144,wsize=262144,"
		 "namlen=255,hard,nolock,proto=tcp,timeo=600,retrans=2,"
		 "sec=sys,mountaddr=127.0.0.1,mountvers=3,mountport=54410,"
		 "mountproto=udp,local_lock=all,addr=127.0.0.1");
	CHECK_STR(s.fs.nfs_version, "3");
	CHECK_STR(s.fs.nfs_local_lock, "all");
	CHECK(s.fs.nfs_acdirmin == 30 && s.fs.nfs_rsize == 262144);
	CHECK_STR(s.fs.nfs_export_dir, "/mnt/export");
	CHECK_STR(s.fs.nfs_export_sync, "async");
	CHECK_STR(s.fs.nfs_export_fstype, "ext4");
	CHECK_STR(s.fs.note, "");

	mount_in(&s, FIX "guest", "nfs4", "/mnt/c42", "127.0.0.1:/",
		 "rw,relatime | rw,vers=4.2,rsize=262144,wsize=262144,"
		 "namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,"
		 "clientaddr=127.0.0.1,local_lock=none,addr=127.0.0.1");
	CHECK_STR(s.fs.nfs_version, "4.2");
	CHECK_STR(s.fs.nfs_local_lock, "none");
	CHECK_STR(s.fs.nfs_export_dir, "/mnt/export");
	CHECK_STR(s.fs.nfs_export_fstype, "ext4");
	CHECK(s.fs.nfs_server_max == 0); /* not in the tree */
	CHECK_STR(s.fs.note, "");
}

/* The per-op lines of mountstats, and what moved between two reads. */
static void test_wire(void)
{
	static struct clyde_nfs_wire a, b, d;
	const struct clyde_nfs_op *op;

	CHECK(clyde_nfs_wire_read(FIX "local-v42", "/mnt/c", &a) == 0);
	CHECK(a.normal_read == 8388608 && a.server_read == 8388608);
	CHECK(a.nops == 8);
	op = clyde_nfs_wire_op(&a, "READ");
	CHECK(op && op->ops == 32 && op->trans == 32 &&
	      op->bytes_recv == 8393728 && op->rtt_ms == 210 &&
	      op->exec_ms == 215);
	op = clyde_nfs_wire_op(&a, "REMOVE");
	CHECK(op && op->ops == 1 && op->exec_ms == 3);
	/* The mount after it in the file is another entry. */
	CHECK(clyde_nfs_wire_read(FIX "local-v42", "/mnt/d", &b) == 0);
	CHECK(b.nops == 1 && clyde_nfs_wire_op(&b, "READ") == NULL);
	CHECK(clyde_nfs_wire_read(FIX "local-v42", "/mnt/none", &b) == -ENOENT);
	/* The guest's own text: FSINFO 2 2 0 312 336 0 1 2 0. */
	CHECK(clyde_nfs_wire_read(FIX "guest", "/mnt/c42", &b) == 0);
	op = clyde_nfs_wire_op(&b, "FSINFO");
	CHECK(op && op->ops == 2 && op->bytes_sent == 312 &&
	      op->bytes_recv == 336 && op->exec_ms == 2);
	CHECK(clyde_nfs_wire_op(&b, "SETCLIENTID_CONFIRM") != NULL);

	/* 8 more READs, one retransmitted, 1 MiB more. */
	b = a;
	for (size_t i = 0; i < b.nops; i++)
		if (!strcmp(b.op[i].name, "READ")) {
			b.op[i].ops += 8;
			b.op[i].trans += 9;
			b.op[i].bytes_recv += 1048576;
			b.op[i].rtt_ms += 40;
		}
	b.server_read += 1048576;
	clyde_nfs_wire_diff(&a, &b, &d);
	op = clyde_nfs_wire_op(&d, "READ");
	CHECK(op && op->ops == 8 && op->trans - op->ops == 1 &&
	      op->bytes_recv == 1048576 && op->rtt_ms == 40);
	op = clyde_nfs_wire_op(&d, "WRITE");
	CHECK(op && op->ops == 0 && op->bytes_sent == 0);
	CHECK(d.server_read == 1048576 && d.normal_read == 0);
}

/* nfsd's CPU time: local-v42's proc has two "nfsd" threads (3 + 147
 * and 0 + 50 ticks of user + system time) and nfsdcld (900 + 900), which
 * is not one. */
static void test_nfsd_cpu(void)
{
	uint64_t ns = 1, hz = (uint64_t)sysconf(_SC_CLK_TCK);

	CHECK(clyde_nfsd_cpu_read(FIX "local-v42", &ns) == 2);
	CHECK(ns == (uint64_t)200 * 1000000000u / hz);
	/* A tree without nfsd threads and one without proc. */
	CHECK(clyde_nfsd_cpu_read(FIX "guest", &ns) == 0 && ns == 0);
	CHECK(clyde_nfsd_cpu_read(FIX "none", &ns) == -ENOENT && ns == 0);
}

int main(void)
{
	test_wire();
	test_nfsd_cpu();
	test_guest_text();
	test_local_v42_async();
	test_local_v41_sync();
	test_remote_v3();
	test_not_in_mountstats();
	return tap_done();
}

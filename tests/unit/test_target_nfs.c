/*
 * The NFS target (io/target_nfs.c) without an NFS mount: it claims an
 * nfs or nfs4 stack; a test's traffic is summed from a mountstats
 * difference with the busiest operations first; the server's cache of
 * a file evicted on the "client" is dropped and measured on the server's
 * side (two directories on a disk filesystem stand for the mount and the
 * export), not controlled when the server is another machine, measured
 * only with --no-evict; and the outputs (the kind's figures hooks,
 * io/target_nfs_out.c, through results/figures.h) name the
 * settings that inflate a test and "server cache not controlled".
 * vm/t_nfs does the same on a real NFS mount.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "core/json_out.h"
#include "io/target.h"
#include "results/figures.h"
#include "tap.h"

#define FIX CLYDE_FIXTURES_DIR "/nfs/"
#define MIB (1024u * 1024u)

static void test_moved(void)
{
	static struct clyde_nfs_wire a, b, d;
	struct clyde_nfs_moved m;

	CHECK(clyde_nfs_wire_read(FIX "local-v42", "/mnt/c", &a) == 0);
	b = a;
	for (size_t i = 0; i < b.nops; i++) {
		if (!strcmp(b.op[i].name, "WRITE")) {
			b.op[i].ops += 16;
			b.op[i].trans += 18;
			b.op[i].bytes_sent += 4 * MIB + 2000;
			b.op[i].rtt_ms += 32;
			b.op[i].exec_ms += 48;
		}
		if (!strcmp(b.op[i].name, "COMMIT"))
			b.op[i].ops += 1, b.op[i].trans += 1;
	}
	b.normal_write += 4 * MIB;
	b.server_write += 4 * MIB;
	clyde_nfs_wire_diff(&a, &b, &d);
	clyde_nfs_wire_moved(&d, &m);
	CHECK(m.measured);
	CHECK(m.rpcs == 17 && m.trans == 19 && clyde_nfs_retrans(&m) == 2);
	CHECK(m.bytes_sent == 4 * MIB + 2000 && m.rtt_ms == 32);
	CHECK(m.app_write == 4 * MIB && m.server_write == 4 * MIB);
	/* Only the operations that moved, the busiest first. */
	CHECK(m.nops == 2);
	CHECK_STR(m.op[0].name, "WRITE");
	CHECK(m.op[0].ops == 16 && m.op[0].exec_ms == 48);
	CHECK_STR(m.op[1].name, "COMMIT");
}

static bool memory_fs(const char *dir)
{
	struct statfs sf;

	return statfs(dir, &sf) == 0 && (sf.f_type == 0x01021994 /* tmpfs */ ||
					 sf.f_type == 0x858458f6 /* ramfs */);
}

struct fx {
	char dir[256], cli[300], srv[300], cfile[320], sfile[320];
	struct clyde_stack stack;
	struct clyde_target target;
};

static int write_file(const char *path, size_t len)
{
	char *buf = malloc(len);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n;

	if (!buf || fd < 0) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	memset(buf, 'c', len);
	n = write(fd, buf, len);
	free(buf);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

static int fx_setup(struct fx *f, int local)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	memset(f, 0, sizeof(*f));
	snprintf(f->dir, sizeof(f->dir), "%s/clyde-tnfs-XXXXXX", tmp);
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->cli, sizeof(f->cli), "%s/cli", f->dir);
	snprintf(f->srv, sizeof(f->srv), "%s/srv", f->dir);
	snprintf(f->cfile, sizeof(f->cfile), "%s/Bonnie.1", f->cli);
	snprintf(f->sfile, sizeof(f->sfile), "%s/Bonnie.1", f->srv);
	if (mkdir(f->cli, 0700) < 0 || mkdir(f->srv, 0700) < 0 ||
	    write_file(f->cfile, 4096) < 0 || write_file(f->sfile, 4 * MIB) < 0)
		return -1;
	f->stack.has_fs = true;
	snprintf(f->stack.fs.type, sizeof(f->stack.fs.type), "nfs4");
	snprintf(f->stack.fs.mount_point, sizeof(f->stack.fs.mount_point), "%s",
		 f->cli);
	snprintf(f->stack.fs.nfs_server, sizeof(f->stack.fs.nfs_server), "%s",
		 local ? "127.0.0.1" : "filer");
	f->stack.fs.nfs_local = local;
	if (local)
		snprintf(f->stack.fs.nfs_export_dir,
			 sizeof(f->stack.fs.nfs_export_dir), "%s", f->srv);
	snprintf(f->target.path, sizeof(f->target.path), "%s", f->cli);
	return 0;
}

static void fx_cleanup(struct fx *f)
{
	unlink(f->cfile);
	unlink(f->sfile);
	rmdir(f->cli);
	rmdir(f->srv);
	rmdir(f->dir);
}

/* Evict the client's file (as bonnie does before a read-side test) and
 * ask the target about the server's cache. */
static int server_seen(struct fx *f, bool evict, struct clyde_server_cache *sc,
		       const char **kind)
{
	struct clyde_target_setup setup = {
		.target = &f->target,
		.stack = &f->stack,
	};
	struct clyde_target_watch w;
	struct clyde_ctx ctx;
	uint64_t res, tot;
	int fd, rc;

	clyde_ctx_init(&ctx);
	rc = clyde_target_open(&ctx, &w, &setup);
	if (rc == 0) {
		*kind = w.ops->name;
		fd = open(f->cfile, O_RDONLY);
		if (fd < 0) {
			rc = -errno;
		} else {
			if (evict)
				rc = clyde_target_evict_fd(&ctx, &w, fd,
							   f->cfile);
			if (!rc)
				rc = clyde_target_residency_fd(&ctx, &w, fd,
							       &res, &tot);
			close(fd);
		}
		clyde_target_server(&w, evict, sc);
		clyde_target_close(&w);
	}
	clyde_ctx_release(&ctx);
	return rc;
}

static void test_server_cache(void)
{
	struct clyde_server_cache sc;
	const char *kind = "";
	struct fx f;

	if (fx_setup(&f, 1) < 0) {
		CHECK(!"temporary directories");
		fx_cleanup(&f);
		return;
	}
	/* The server's file was just written: its pages are cached. */
	CHECK(server_seen(&f, false, &sc, &kind) == 0);
	CHECK_STR(kind, "nfs");
	CHECK(sc.state == CLYDE_SERVER_CACHE_MEASURED);
	CHECK(sc.files == 1 && sc.total_bytes == 4 * MIB);
	if (memory_fs(f.dir)) {
		tap_skip_part("the server's eviction: the temporary directory "
			      "is on a memory filesystem");
	} else {
		CHECK(sc.resident_bytes > 2 * MIB);
		/* Evicting: written back, dropped, measured empty. */
		CHECK(server_seen(&f, true, &sc, &kind) == 0);
		CHECK(sc.state == CLYDE_SERVER_CACHE_DROPPED);
		CHECK(sc.files == 1 && sc.total_bytes == 4 * MIB);
		CHECK(sc.resident_before > 2 * MIB);
		CHECK(sc.resident_bytes < 64 * 1024);
	}
	fx_cleanup(&f);

	/* A server elsewhere: nothing to do, and it says so. */
	if (fx_setup(&f, 0) < 0) {
		CHECK(!"temporary directories");
		fx_cleanup(&f);
		return;
	}
	CHECK(server_seen(&f, true, &sc, &kind) == 0);
	CHECK(sc.state == CLYDE_SERVER_CACHE_NOT_CONTROLLED);
	CHECK(strstr(sc.why, "filer is not this machine") != NULL);
	CHECK(sc.files == 0);
	fx_cleanup(&f);

	/* Another filesystem is the block kind's. */
	memset(&f, 0, sizeof(f));
	f.stack.has_fs = true;
	snprintf(f.stack.fs.type, sizeof(f.stack.fs.type), "ext4");
	CHECK(clyde_target_find(&f.stack, &f.target) == &clyde_target_block);
	snprintf(f.stack.fs.type, sizeof(f.stack.fs.type), "nfs");
	CHECK(clyde_target_find(&f.stack, &f.target) == &clyde_target_nfs);
}

static char *json_of(const struct clyde_run *r, enum clyde_test id)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	struct clyde_jw w = { .f = m };

	clyde_jw_open(&w, NULL, '{');
	clyde_figs_json(&w, r, id, CLYDE_FIGS_AT_MEMBERS);
	clyde_jw_close(&w, '}');
	fclose(m);
	/* One line without the layout: `"key":value`. */
	if (text) {
		char *out = text;

		for (const char *in = text; *in; in++) {
			if (*in == '\n') {
				while (in[1] == ' ')
					in++;
				continue;
			}
			*out++ = *in;
			if (in[0] == ':' && in[1] == ' ' && in > text &&
			    in[-1] == '"')
				in++;
		}
		*out = '\0';
	}
	return text;
}

static void test_outputs(void)
{
	static struct clyde_run r;
	struct clyde_stack_fs *fs = &r.env.stack.fs;
	struct clyde_test_result *gb = &r.tests[CLYDE_GET_BLOCK];
	struct clyde_test_result *pb = &r.tests[CLYDE_PUT_BLOCK];
	struct clyde_nfs_moved *nfs;
	char buf[128], *text = NULL, *j;
	size_t len = 0;
	FILE *m;

	r.env.stack.has_fs = true;
	snprintf(fs->type, sizeof(fs->type), "nfs4");
	snprintf(fs->nfs_cto, sizeof(fs->nfs_cto), "cto");
	snprintf(fs->nfs_export_sync, sizeof(fs->nfs_export_sync), "async");
	fs->nfs_acregmin = 3, fs->nfs_acregmax = 60;
	fs->nfs_acdirmin = 30, fs->nfs_acdirmax = 60;
	CHECK_STR(clyde_nfs_inflated(&r.env.stack,
				     clyde_figs_does(CLYDE_PUT_BLOCK), buf,
				     sizeof(buf)),
		  "async export");
	CHECK_STR(clyde_nfs_inflated(&r.env.stack,
				     clyde_figs_does(CLYDE_GET_BLOCK), buf,
				     sizeof(buf)),
		  "");
	snprintf(fs->nfs_cto, sizeof(fs->nfs_cto), "nocto");
	fs->nfs_acregmin = 600;
	CHECK_STR(clyde_nfs_inflated(&r.env.stack,
				     clyde_figs_does(CLYDE_GET_BLOCK), buf,
				     sizeof(buf)),
		  "nocto");
	CHECK_STR(clyde_nfs_inflated(&r.env.stack,
				     clyde_figs_does(CLYDE_SEQ_STAT), buf,
				     sizeof(buf)),
		  "nocto, long actimeo");
	CHECK_STR(clyde_nfs_inflated(&r.env.stack,
				     clyde_figs_does(CLYDE_SEQ_DEL), buf,
				     sizeof(buf)),
		  "async export");

	/* A read from a remote server's cache; a write with traffic. */
	gb->state = CLYDE_DONE;
	gb->bytes = 8 * MIB;
	gb->cache.evicted = true;
	gb->cache.server.state = CLYDE_SERVER_CACHE_NOT_CONTROLLED;
	snprintf(gb->cache.server.why, sizeof(gb->cache.server.why),
		 "the server filer is not this machine");
	pb->state = CLYDE_DONE;
	pb->bytes = 8 * MIB;
	nfs = clyde_test_figs_alloc(pb, &clyde_target_nfs);
	CHECK(nfs != NULL);
	if (!nfs)
		return;
	nfs->measured = true;
	nfs->rpcs = 9;
	nfs->trans = 9;
	nfs->bytes_sent = 8 * MIB + 8 * MIB / 8;
	nfs->nops = 1;
	snprintf(nfs->op[0].name, sizeof(nfs->op[0].name), "WRITE");
	nfs->op[0].ops = 8;
	nfs->op[0].rtt_ms = 20;
	fs->nfs_local = 0;
	j = json_of(&r, CLYDE_GET_BLOCK);
	CHECK(j && strstr(j, "\"note\":\"server cache not controlled\""));
	CHECK(j && strstr(j, "\"inflated_by\":[\"nocto\"]"));
	CHECK(j && strstr(j, "\"close_to_open\":\"nocto\""));
	free(j);
	j = json_of(&r, CLYDE_PUT_BLOCK);
	CHECK(j && strstr(j, "\"wire_write_amplification\":1.125"));
	CHECK(j && strstr(j, "\"rtt_ms_mean\":2.500"));
	CHECK(j && strstr(j, "\"server_cache\":null"));
	free(j);
	j = json_of(&r, CLYDE_GETC); /* not run */
	CHECK(j && strstr(j, "\"nfs\":null"));
	free(j);

	m = open_memstream(&text, &len);
	clyde_figs_text(m, &r, 1);
	fclose(m);
	printf("# %s", text);
	CHECK(text && strstr(text, "WRITE 8 (rtt 2.50 ms"));
	CHECK(text && strstr(text, "write amplification: wire 1.12x"));
	CHECK(text && strstr(text, "inflated by: async export"));
	CHECK(text &&
	      strstr(text, "\nclyde:     server cache not controlled\n"));
	free(text);
	clyde_test_figs_free(pb);
}

int main(void)
{
	test_moved();
	test_server_cache();
	test_outputs();
	return tap_done();
}

/*
 * I/O engines: how a test moves a buffer to or from a file.  Every engine is
 * one file that fills one struct clyde_engine_ops; the tests call through
 * it and never issue data syscalls themselves.  psync (pread/pwrite) is the
 * only engine so far; io_uring will be another file and another table line.
 */
#ifndef CLYDE_IO_ENGINE_H
#define CLYDE_IO_ENGINE_H

#include <stddef.h>
#include <sys/types.h>

struct clyde_engine_ops {
	const char *name;
	/* Transfer up to len bytes at off; return the count or -errno. */
	ssize_t (*read)(int fd, void *buf, size_t len, off_t off);
	ssize_t (*write)(int fd, const void *buf, size_t len, off_t off);
	/* Make written data durable; 0 or -errno. */
	int (*sync)(int fd);
};

extern const struct clyde_engine_ops clyde_engine_psync;

/* Look an engine up by name; NULL when there is none. */
const struct clyde_engine_ops *clyde_engine_find(const char *name);

/*
 * Transfer exactly len bytes, retrying short transfers.  Returns 0, a
 * negative errno, or -ENODATA when a read meets the end of the file early.
 */
int clyde_engine_read_full(const struct clyde_engine_ops *e, int fd, void *buf,
			   size_t len, off_t off);
int clyde_engine_write_full(const struct clyde_engine_ops *e, int fd,
			    const void *buf, size_t len, off_t off);

#endif

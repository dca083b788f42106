/*
 * --verify's reading back (io/verify.h): the whole range in buffers of
 * whole pieces, so that units start where the writes started them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/ctx.h"
#include "io/iobuf.h"
#include "io/verify.h"

/* Read buffers of about this size (whole pieces, at least one). */
#define READ_BYTES (1u << 20)

static int check_piece(const struct clyde_verify_read *r,
		       const unsigned char *p, size_t n, uint64_t off,
		       struct clyde_verify_result *res)
{
	uint32_t gen = r->gen;
	bool older = false;

	if (r->gen_at) {
		gen = r->gen_at(r->gen_arg, off, &older);
		if (!gen)
			return 0;
	}
	for (size_t at = 0; at < n; at += r->unit) {
		size_t u = n - at < r->unit ? n - at : r->unit;
		struct clyde_verify_bad bad;

		if (u < CLYDE_VERIFY_HDR)
			break;
		res->units++;
		if (clyde_verify_unit_ok(p + at, u, off + at, gen, older,
					 r->seed, &bad))
			continue;
		if (!res->bad++)
			res->first = bad;
	}
	return 0;
}

int clyde_verify_read(struct clyde_ctx *ctx, const struct clyde_verify_read *r,
		      struct clyde_verify_result *out)
{
	struct clyde_verify_result mine, *res = out ? out : &mine;
	size_t pieces = r->piece >= READ_BYTES ? 1 : READ_BYTES / r->piece;
	size_t bufsize = pieces * r->piece;
	struct clyde_iobuf buf;
	uint64_t done = 0;
	char text[512];
	int ret = 0;

	memset(res, 0, sizeof(*res));
	if (!r->len)
		return 0;
	if (clyde_iobuf_alloc(&buf, bufsize, false) < 0)
		return clyde_err(ctx, ENOMEM, "%s: %zu bytes", r->what,
				 bufsize);
	while (done < r->len && !ret) {
		uint64_t want = r->len - done < bufsize ? r->len - done :
							  bufsize;
		ssize_t got = 0;

		if (clyde_stopping(ctx)) {
			ret = -EINTR;
			break;
		}
		/* A short read of a file (or an O_DIRECT read of its
		 * unaligned tail) continues where it stopped. */
		while ((uint64_t)got < want) {
			ssize_t k =
				pread(r->fd, buf.p + got,
				      (size_t)(want - (uint64_t)got),
				      (off_t)(r->start + done + (uint64_t)got));

			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0) {
				ret = clyde_err(ctx, errno,
						"%s: cannot read at offset "
						"%" PRIu64,
						r->what,
						r->start + done +
							(uint64_t)got);
				break;
			}
			if (k == 0)
				break;
			got += k;
		}
		if (ret)
			break;
		for (uint64_t at = 0; at < (uint64_t)got; at += r->piece) {
			uint64_t n = (uint64_t)got - at < r->piece ?
					     (uint64_t)got - at :
					     r->piece;

			check_piece(r, buf.p + at, (size_t)n,
				    r->start + done + at, res);
		}
		done += (uint64_t)got;
		res->bytes = done;
		if ((uint64_t)got < want) {
			res->short_file = true;
			res->size = r->start + done;
			break;
		}
	}
	clyde_iobuf_free(&buf);
	if (ret)
		return ret;
	if (res->bad) {
		clyde_verify_describe(&res->first, text, sizeof(text));
		return clyde_err(ctx, 0,
				 "%s %s; %" PRIu64 " of %" PRIu64
				 " blocks wrong",
				 r->what, text, res->bad, res->units);
	}
	if (res->short_file)
		return clyde_err(ctx, 0,
				 "%s: the file ends at %" PRIu64
				 " bytes; %" PRIu64 " were written (a lost "
				 "write or size)",
				 r->what, res->size, r->start + r->len);
	return 0;
}

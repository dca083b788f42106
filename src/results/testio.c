#include "results/testio.h"

#include <string.h>

#include "env/settle.h"
#include "env/stack.h"
#include "results/result.h"
#include "results/tree_result.h"

/* a * num / den without overflow for byte counts, den > 0, num <= den. */
static uint64_t scaled(uint64_t a, uint64_t num, uint64_t den)
{
	return (uint64_t)((double)a * (double)num / (double)den + 0.5);
}

static uint64_t at_most(uint64_t v, uint64_t max)
{
	return v < max ? v : max;
}

/* clyde's share of `total` (on the leaves) from its bytes `own` above the
 * block layer and what the top device carried.  Nothing on the top device:
 * nothing of clyde's reached the leaves (its dirty pages are still in
 * memory; what the leaves did is a resync, another user of a member). */
static uint64_t share(uint64_t total, uint64_t own, uint64_t top)
{
	if (!top)
		return 0;
	if (own >= top)
		return total;
	return scaled(total, own, top);
}

/*
 * clyde's reads on the devices, task source.  On leaves below the top
 * device (md, dm) the leaves read what the top device's users read, and
 * on top of that what the array reads by itself: a RAID5/6 reads old data
 * and parity to complete a partial stripe of the writes it was given.
 * Those reads serve the writes, so they go by clyde's share of the
 * writes, not by its share of the few KiB of metadata the array device
 * read (nothing written to the array: a resync, not clyde's).
 */
static uint64_t own_reads(const struct clyde_test_io *io,
			  const struct clyde_devio *fs_dev,
			  const struct clyde_ownio *own)
{
	uint64_t passed, made;

	if (!io->nleaves || !io->have_top)
		return share(io->total_read, own->top_read_bytes,
			     fs_dev->read_bytes);
	passed = at_most(fs_dev->read_bytes, io->total_read);
	made = io->total_read - passed;
	return share(passed, own->top_read_bytes, fs_dev->read_bytes) +
	       share(made, own->top_write_bytes, fs_dev->write_bytes);
}

void clyde_test_io_compute(const struct clyde_devio *top,
			   const struct clyde_members *m,
			   const struct clyde_ownio *own, uint64_t written,
			   struct clyde_test_io *io)
{
	const struct clyde_devio *fs_dev = NULL; /* carries the fs's I/O */
	unsigned ndata = 0;

	memset(io, 0, sizeof(*io));
	io->wa = -1.0;
	for (unsigned i = 0; m && i < m->n; i++) {
		const struct clyde_devio *d = &m->m[i].io;

		if (!d->have_device)
			continue;
		io->nleaves++;
		ndata += m->m[i].role == CLYDE_ROLE_DATA;
		io->total_read += d->read_bytes;
		io->total_write += d->write_bytes;
		if (m->m[i].is_top)
			fs_dev = d;
	}
	if (io->nleaves) {
		io->have = true;
		io->on_leaves = io->nleaves > 1 || !fs_dev;
		/* The top device's share says something when it is not the
		 * one data disk (md, dm, btrfs over several). */
		if ((ndata > 1 || !fs_dev) && top && top->have_device) {
			io->have_top = true;
			io->top_read = top->read_bytes;
			io->top_write = top->write_bytes;
		}
		/* A leaf that is the top device carries all of the
		 * filesystem's data only when it is its one data device
		 * (not btrfs over several). */
		if (fs_dev && ndata > 1)
			fs_dev = NULL;
		else if (!fs_dev && top && top->have_device)
			fs_dev = top;
	} else if (top && top->have_device) {
		io->have = true;
		io->total_read = top->read_bytes;
		io->total_write = top->write_bytes;
		fs_dev = top;
	}
	if (!io->have)
		return;
	if (own && own->source == CLYDE_OWN_CGROUP &&
	    (io->nleaves ? own->have_leaves : own->have_top)) {
		io->attributed = true;
		io->own_read = at_most(io->nleaves ? own->leaves_read_bytes :
						     own->top_read_bytes,
				       io->total_read);
		io->own_write = at_most(io->nleaves ? own->leaves_write_bytes :
						      own->top_write_bytes,
					io->total_write);
	} else if (own && own->have_top && fs_dev) {
		io->attributed = true;
		io->own_read = own_reads(io, fs_dev, own);
		io->own_write = share(io->total_write, own->top_write_bytes,
				      fs_dev->write_bytes);
	}
	if (io->attributed) {
		io->source = own->source;
		io->other_read = io->total_read - io->own_read;
		io->other_write = io->total_write - io->own_write;
		if (own->have_others) {
			/* Beyond the other processes' bytes, the device's
			 * other I/O is the filesystem's work for clyde, when
			 * they did none of that kind: a process's bytes are
			 * counted when it dirties or reads, its writeback
			 * reaches the device later, so with others writing
			 * the rest is theirs as much as the filesystem's and
			 * stays other I/O.  So does a test's that wrote
			 * nothing of its own: what the devices wrote during
			 * it is a writeback of pages dirtied before it (a
			 * read-only walk beside a writer), not a journal of
			 * clyde's writes. */
			io->others_known = true;
			io->others_procs = own->others_procs;
			if (!own->others_read_bytes)
				io->fs_read = io->other_read;
			if (!own->others_write_bytes && io->own_write)
				io->fs_write = io->other_write;
			io->other_read -= io->fs_read;
			io->other_write -= io->fs_write;
		}
		io->read = io->own_read;
		io->write = io->own_write;
	} else {
		io->read = io->total_read;
		io->write = io->total_write;
	}
	if (written)
		io->wa = (double)io->write / (double)written;
}

void clyde_test_io_add(struct clyde_test_io *a, const struct clyde_test_io *b,
		       uint64_t written)
{
	if (!b->have)
		return;
	if (!a->have) {
		*a = *b;
	} else {
		a->on_leaves |= b->on_leaves;
		a->attributed &= b->attributed;
		a->have_top &= b->have_top;
		a->total_read += b->total_read;
		a->total_write += b->total_write;
		a->top_read += b->top_read;
		a->top_write += b->top_write;
		a->own_read += b->own_read;
		a->own_write += b->own_write;
		a->other_read += b->other_read;
		a->other_write += b->other_write;
		a->others_known &= b->others_known;
		a->others_procs += b->others_procs;
		a->fs_read += b->fs_read;
		a->fs_write += b->fs_write;
		a->read += b->read;
		a->write += b->write;
		a->lost |= b->lost;
	}
	a->wa = written ? (double)a->write / (double)written : -1.0;
}

void clyde_test_io_judge_busy(const struct clyde_test_io *io,
			      struct clyde_settle *s)
{
	uint64_t others = io->other_read + io->other_write,
		 total = io->total_read + io->total_write;

	if (!io->have || !io->attributed || !io->others_known)
		return;
	s->others_known = true;
	s->others_bytes = others;
	s->others_procs = io->others_procs;
	s->device_bytes = total;
	s->busy_during = others >= CLYDE_OTHER_MIN_BYTES &&
			 (double)others >=
				 CLYDE_BUSY_OTHERS_FRACTION * (double)total;
	s->busy |= s->busy_during;
}

static bool worth(uint64_t other, uint64_t total)
{
	return other >= CLYDE_OTHER_MIN_BYTES &&
	       (double)other >= CLYDE_OTHER_MIN_FRACTION * (double)total;
}

bool clyde_test_io_other_shown(const struct clyde_test_io *io)
{
	return io->attributed && (worth(io->other_read, io->total_read) ||
				  worth(io->other_write, io->total_write));
}

bool clyde_test_writes_its_bytes(int id)
{
	return id == CLYDE_PUTC || id == CLYDE_PUT_BLOCK || id == CLYDE_REWRITE;
}

bool clyde_stack_shrinks_data(const struct clyde_stack *s)
{
	const struct clyde_stack_fs *fs = &s->fs;

	if (s->has_fs && !strcmp(fs->type, "zfs") &&
	    strcmp(fs->zfs_compression, "off") != 0)
		return true;
	/* compress=, compress-force= (btrfs), compress_algorithm= (f2fs) */
	if (s->has_fs && strstr(fs->mount_opts, "compress"))
		return true;
	for (size_t i = 0; i < s->nnodes; i++) {
		const struct clyde_stack_node *n = &s->nodes[i];

		if (n->kind == &clyde_stack_zram)
			return true;
		if (n->kind == &clyde_stack_dm &&
		    (!strcmp(n->dm_target, "vdo") ||
		     strstr(n->dm_table, " vdo ")))
			return true;
	}
	return false;
}

bool clyde_test_io_lost(double wa, uint64_t written, uint64_t extent,
			bool zeros, const struct clyde_stack *s)
{
	if (extent && extent < written && wa >= 0.0) {
		wa = wa * (double)written / (double)extent;
		written = extent;
	}
	if (!s || wa < 0.0 || written < CLYDE_WA_LOST_MIN_BYTES ||
	    wa >= CLYDE_WA_LOST)
		return false;
	return !(zeros && clyde_stack_shrinks_data(s));
}

void clyde_test_io_of_run(const struct clyde_run *r, int id,
			  struct clyde_test_io *io)
{
	const struct clyde_test_result *t = &r->tests[id];
	uint64_t written = clyde_test_writes_its_bytes(id) ? t->bytes : 0;

	/* Each worker writes a file of its own of file_size_mib. */
	uint64_t extent = (r->params.file_size_mib << 20) *
			  (t->nworkers ? t->nworkers : 1);

	clyde_test_io_compute(&t->dev, &t->members, &t->own, written, io);
	io->lost = io->have &&
		   clyde_test_io_lost(io->wa, written, extent,
				      !strcmp(r->params.pattern, "zeros"),
				      &r->env.stack);
}

void clyde_test_io_of_phase(const struct clyde_tree_run *run, int p,
			    struct clyde_test_io *io)
{
	const struct clyde_tree_phase_result *r = &run->phases[p];

	uint64_t written = p == CLYDE_TREE_EXTRACT ? r->bytes : 0;

	clyde_test_io_compute(&r->dev, &r->members, &r->own, written, io);
	io->lost = io->have &&
		   clyde_test_io_lost(io->wa, written, 0, run->cfg.zeros,
				      &run->env.stack);
}

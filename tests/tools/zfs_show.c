/*
 * zfs_show PATH: what src/env/zfs.c reads of the ZFS dataset holding PATH,
 * one fact a line, for tests/vm/t_zfs_pools.sh to hold against `zpool
 * status` and `zfs get` in the guest.  A test tool, not installed: the
 * user-facing view is `clyde stack`'s.
 *
 *   dataset NAME POOL MOUNTPOINT
 *   pool STATE LAYOUT ASHIFT SIZE ALLOC FREE
 *   vdev DEPTH CLASS TYPE NAME STATE PARITY ASHIFT DEV
 *   draid DATA CHILDREN SPARES          (after a draid vdev's line)
 *   prop NAME VALUE                     (the dataset's properties)
 *   arc SIZE C C_MAX DEMAND_DATA_HITS DEMAND_DATA_MISSES
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/ctx.h"
#include "env/zfs.h"

int main(int argc, char **argv)
{
	static struct clyde_zfs_pool pool;
	struct clyde_zfs_src src = { 0 };
	struct clyde_zfs_dataset ds;
	struct clyde_zfs_arc arc;
	struct clyde_ctx ctx;
	char real[PATH_MAX], name[CLYDE_ZFS_NAME_MAX],
		pname[CLYDE_ZFS_NAME_MAX];
	char mnt[PATH_MAX];
	int rc = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: zfs_show PATH\n");
		return 2;
	}
	clyde_ctx_init(&ctx);
	if (!realpath(argv[1], real)) {
		perror(argv[1]);
		goto out;
	}
	if (clyde_zfs_path_dataset(&ctx, &src, real, name, sizeof(name), pname,
				   sizeof(pname), mnt, sizeof(mnt)) < 0 ||
	    clyde_zfs_pool_read(&ctx, &src, pname, &pool) < 0 ||
	    clyde_zfs_dataset_read(&ctx, &src, name, &ds) < 0 ||
	    clyde_zfs_arc_read(&ctx, &src, &arc) < 0) {
		fprintf(stderr, "zfs_show: %s\n", clyde_errmsg(&ctx));
		goto out;
	}
	printf("dataset %s %s %s\n", name, pname, mnt);
	printf("pool %s %s %d %llu %llu %llu\n", pool.state, pool.layout,
	       pool.ashift, (unsigned long long)pool.size_bytes,
	       (unsigned long long)pool.alloc_bytes,
	       (unsigned long long)pool.free_bytes);
	for (int i = 0; i < pool.n_vdevs; i++) {
		const struct clyde_zfs_vdev *v = &pool.vdevs[i];

		printf("vdev %d %s %s %s %s %d %d %s\n", v->depth,
		       clyde_zfs_class_name(v->cls),
		       clyde_zfs_vdev_type_name(v->type), v->name,
		       v->state[0] ? v->state : "-", v->parity, v->ashift,
		       v->dev[0] ? v->dev : "-");
		if (v->type == CLYDE_ZFS_VDEV_DRAID)
			printf("draid %d %d %d\n", v->draid_data,
			       v->draid_children, v->draid_spares);
	}
	printf("prop type %s\n", ds.type);
	printf("prop recordsize %llu\n", (unsigned long long)ds.recordsize);
	printf("prop compression %s\n", ds.compression);
	printf("prop compressratio %.2f\n", ds.compressratio);
	printf("prop checksum %s\n", ds.checksum);
	printf("prop sync %s\n", ds.sync);
	printf("prop atime %s\n", ds.atime);
	printf("prop primarycache %s\n", ds.primarycache);
	printf("prop logbias %s\n", ds.logbias);
	printf("prop direct %s\n", ds.direct[0] ? ds.direct : "-");
	printf("arc %llu %llu %llu %llu %llu\n", (unsigned long long)arc.size,
	       (unsigned long long)arc.c, (unsigned long long)arc.c_max,
	       (unsigned long long)arc.demand_data_hits,
	       (unsigned long long)arc.demand_data_misses);
	rc = 0;
out:
	clyde_ctx_release(&ctx);
	return rc;
}

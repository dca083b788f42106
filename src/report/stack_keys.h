/*
 * The storage stack's settings for the "what differs" part of compare and
 * report: the filesystem's geometry (stripe unit and width, block size,
 * journal, btrfs profiles), the stripe the filesystem sits on (RAID level,
 * chunk, data disks, stripe width), each md array's and striped dm
 * device's tunables, the loop devices' direct I/O and the member disks'
 * count, models and queue settings.
 *
 * Only what describes a configuration: no device names that change from
 * one attach to the next (loop3 today, loop5 tomorrow), no UUIDs, no
 * sizes of backing files.  Values that several devices share are joined
 * ("raid5" when every md array is raid5, "off, on" when loop devices
 * differ).
 */
#ifndef CLYDE_REPORT_STACK_KEYS_H
#define CLYDE_REPORT_STACK_KEYS_H

#include "env/stack.h"

/* Called once per key; returns 0 or a negative errno (which stops). */
typedef int (*clyde_stack_key_fn)(void *arg, const char *key,
				  const char *value);

/* Give each setting of s to set().  Returns 0 or the first error. */
int clyde_stack_keys(const struct clyde_stack *s, clyde_stack_key_fn set,
		     void *arg);

#endif

#include "dist/semsync.h"

#include <errno.h>
#include <signal.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/types.h>

/* semctl's fourth argument, which the program must declare itself. */
union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
};

#define SEM_VALUE_MAX_ 32767

int clyde_semsync_create(struct clyde_ctx *ctx, int nprocs)
{
	union semun arg;
	int id = semget(CLYDE_SEM_KEY, 2, IPC_CREAT | 0600);

	if (id < 0)
		return clyde_err(ctx, errno, "-p: cannot create semaphores");
	arg.val = 0;
	if (semctl(id, 0, SETVAL, arg) < 0)
		return clyde_err(ctx, errno, "-p: cannot set semaphores");
	arg.val = nprocs;
	if (semctl(id, 1, SETVAL, arg) < 0)
		return clyde_err(ctx, errno, "-p: cannot set semaphores");
	return 0;
}

int clyde_semsync_remove(struct clyde_ctx *ctx)
{
	int id = semget(CLYDE_SEM_KEY, 0, 0);

	if (id < 0)
		return clyde_err(ctx, errno, "-p -1: no semaphores to remove");
	if (semctl(id, 0, IPC_RMID) < 0)
		return clyde_err(ctx, errno, "-p -1: cannot remove semaphores");
	return 0;
}

int clyde_semsync_open(struct clyde_ctx *ctx, struct clyde_semsync *s)
{
	int n, arrived, last;

	s->semid = semget(CLYDE_SEM_KEY, 2, 0);
	if (s->semid < 0)
		return clyde_err(ctx, errno,
				 "-y s: no semaphores; create them first with "
				 "clyde -p N");
	n = semctl(s->semid, 1, GETVAL);
	if (n <= 0)
		return clyde_err(ctx, n < 0 ? errno : EINVAL,
				 "-y s: semaphores hold no process count");
	/*
	 * The barriers count arrivals since the set was made, so a set that
	 * has seen a whole barrier (arrivals >= N) belongs to a run that is
	 * over or under way, and one whose last arrival came from a process
	 * that is gone was left by an interrupted run: joining either would
	 * release the barriers at the wrong moments.
	 */
	arrived = semctl(s->semid, 0, GETVAL);
	if (arrived < 0)
		return clyde_err(ctx, errno,
				 "-y s: cannot read the semaphores");
	if (arrived >= n)
		return clyde_err(
			ctx, 0,
			"-y s: the semaphores (key 0x%x) were already "
			"used by a run (%d arrivals for %d processes); "
			"reset them with clyde -p %d (or remove them "
			"with clyde -p -1) before starting the "
			"processes",
			CLYDE_SEM_KEY, arrived, n, n);
	last = arrived > 0 ? semctl(s->semid, 0, GETPID) : 0;
	if (last > 0 && kill((pid_t)last, 0) < 0 && errno == ESRCH)
		return clyde_err(ctx, 0,
				 "-y s: the semaphores (key 0x%x) were left by "
				 "an interrupted run (process %d is gone); "
				 "reset them with clyde -p %d (or remove them "
				 "with clyde -p -1)",
				 CLYDE_SEM_KEY, last, n);
	s->nprocs = n;
	s->generation = 0;
	return 0;
}

int clyde_semsync_wait(struct clyde_ctx *ctx, struct clyde_semsync *s)
{
	struct sembuf arrive = { .sem_num = 0, .sem_op = 1 };
	struct sembuf wait[2];
	long target;

	s->generation++;
	target = (long)s->nprocs * s->generation;
	if (target > SEM_VALUE_MAX_)
		return clyde_err(ctx, ERANGE,
				 "-y s: too many synchronised tests for %d "
				 "processes; recreate the set with -p",
				 s->nprocs);
	if (semop(s->semid, &arrive, 1) < 0)
		return errno == EINTR ? -EINTR :
					clyde_err(ctx, errno, "-y s: semop");
	/* Wait until the count reaches target, leaving it unchanged: take
	 * target away and give it back in one atomic operation. */
	wait[0] = (struct sembuf){ .sem_num = 0, .sem_op = (short)-target };
	wait[1] = (struct sembuf){ .sem_num = 0, .sem_op = (short)target };
	if (semop(s->semid, wait, 2) < 0)
		return errno == EINTR ? -EINTR :
					clyde_err(ctx, errno, "-y s: semop");
	return 0;
}

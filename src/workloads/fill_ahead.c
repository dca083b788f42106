#include "workloads/fill_ahead.h"

#include <errno.h>

#include "workloads/worker.h"

static void *helper(void *arg)
{
	struct clyde_fill_ahead *a = arg;
	struct clyde_cpu_mark cpu;

	clyde_cpu_mark(&cpu);
	pthread_mutex_lock(&a->lock);
	while (!a->stop) {
		if (a->ready) {
			pthread_cond_wait(&a->cond, &a->lock);
			continue;
		}
		/* The spare is the helper's until it says ready. */
		pthread_mutex_unlock(&a->lock);
		clyde_pattern_fill(a->pat, a->spare, a->len);
		pthread_mutex_lock(&a->lock);
		a->ready = true;
		pthread_cond_broadcast(&a->cond);
	}
	pthread_mutex_unlock(&a->lock);
	clyde_cpu_since(&cpu, &a->user_ns, &a->sys_ns);
	return NULL;
}

int clyde_fill_ahead_start(struct clyde_fill_ahead *a,
			   struct clyde_pattern_gen *pat, unsigned char *spare,
			   size_t len)
{
	int ret;

	*a = (struct clyde_fill_ahead){
		.pat = pat,
		.len = len,
		.spare = spare,
	};
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->cond, NULL);
	ret = pthread_create(&a->thread, NULL, helper, a);
	if (ret) {
		pthread_cond_destroy(&a->cond);
		pthread_mutex_destroy(&a->lock);
		return -ret;
	}
	return 0;
}

unsigned char *clyde_fill_ahead_swap(struct clyde_fill_ahead *a,
				     unsigned char *done)
{
	unsigned char *made;

	pthread_mutex_lock(&a->lock);
	while (!a->ready)
		pthread_cond_wait(&a->cond, &a->lock);
	made = a->spare;
	a->spare = done;
	a->ready = false;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
	return made;
}

void clyde_fill_ahead_stop(struct clyde_fill_ahead *a, uint64_t *user_ns,
			   uint64_t *sys_ns)
{
	pthread_mutex_lock(&a->lock);
	a->stop = true;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	pthread_cond_destroy(&a->cond);
	pthread_mutex_destroy(&a->lock);
	*user_ns += a->user_ns;
	*sys_ns += a->sys_ns;
}

/* Emulated thread-local storage (docs/architecture.md).
 *
 * popcorn-llc lowers every __thread variable to a control object and a call
 * to __emutls_get_address, on every ISA.  The variable then lives in heap
 * memory at an ordinary address, the same whichever ISA the thread runs on,
 * instead of at an ISA-specific offset from the thread pointer.  The layout
 * of the control object is fixed by LLVM's emulated-TLS lowering. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct __emutls_control {
	size_t size;
	size_t align;
	uintptr_t index;   /* 0 until first use, then 1 + slot in the array */
	const void *init;  /* initial value, or 0 for zero-filled */
};

struct slots {
	size_t count;
	int freeing_deferred; /* free_slots has put the slots back once */
	void *object[];
};

static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t index_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t last_index;

/* The key's destructor, at thread exit.  Other keys' destructors may run
 * after it and still use thread-locals (libc++abi runs the destructors of
 * thread_local objects from its own key's, and musl runs keys in the order
 * they were made), so the first round only puts the slots back: musl
 * repeats the rounds while a destructor sets a value, and the next one
 * frees them. */
static void free_slots(void *p)
{
	struct slots *s = p;
	if (!s->freeing_deferred) {
		s->freeing_deferred = 1;
		pthread_setspecific(key, s);
		return;
	}
	for (size_t i = 0; i < s->count; i++)
		free(s->object[i]);
	free(s);
}

static void create_key(void)
{
	if (pthread_key_create(&key, free_slots))
		abort();
}

static uintptr_t assign_index(struct __emutls_control *c)
{
	pthread_mutex_lock(&index_lock);
	uintptr_t index = __atomic_load_n(&c->index, __ATOMIC_ACQUIRE);
	if (!index) {
		index = ++last_index;
		__atomic_store_n(&c->index, index, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&index_lock);
	return index;
}

static struct slots *grow(struct slots *s, size_t need)
{
	size_t old = s ? s->count : 0;
	size_t count = need < 16 ? 16 : need + need / 2;
	struct slots *n = realloc(s, sizeof *n + count * sizeof n->object[0]);
	if (!n)
		abort();
	memset(n->object + old, 0, (count - old) * sizeof n->object[0]);
	if (!s)
		n->freeing_deferred = 0;
	n->count = count;
	pthread_setspecific(key, n);
	return n;
}

static void *new_object(const struct __emutls_control *c)
{
	size_t align = c->align < sizeof(void *) ? sizeof(void *) : c->align;
	void *p;
	if (posix_memalign(&p, align, c->size))
		abort();
	if (c->init)
		memcpy(p, c->init, c->size);
	else
		memset(p, 0, c->size);
	return p;
}

void *__emutls_get_address(struct __emutls_control *c)
{
	pthread_once(&key_once, create_key);
	uintptr_t index = __atomic_load_n(&c->index, __ATOMIC_ACQUIRE);
	if (!index)
		index = assign_index(c);
	struct slots *s = pthread_getspecific(key);
	if (!s || s->count < index)
		s = grow(s, index);
	if (!s->object[index - 1])
		s->object[index - 1] = new_object(c);
	return s->object[index - 1];
}

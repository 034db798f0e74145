// POPCORN-MIGRATE-EVERY: 7
/* libc calling back into the program: constructors and destructors, qsort,
 * bsearch, the tsearch family, lsearch/lfind, nftw, scandir, atexit,
 * pthread_once, call_once, thread-specific data destructors and cleanup
 * handlers.  With POPCORN_CHECK_UNWIND=1 every callback's migration points
 * walk through the libc frames below them, with libc's call-site records. */
#define _GNU_SOURCE
#include <dirent.h>
#include <ftw.h>
#include <pthread.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <threads.h>
#include <unistd.h>

static int calls;

__attribute__((constructor)) static void before_main(void)
{
	calls++;
}

__attribute__((destructor)) static void after_exit(void)
{
	printf("destructor after %d callbacks\n", calls);
}

static int by_value(const void *a, const void *b)
{
	calls++;
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static void show_node(const void *node, VISIT order, int depth)
{
	calls++;
	if (order == postorder || order == leaf)
		printf(" %d@%d", **(const int *const *)node, depth);
}

static void free_nothing(void *node)
{
	(void)node;
	calls++;
}

static int tree_files, tree_dirs;

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	calls++;
	(void)path;
	(void)st;
	if (type == FTW_F)
		tree_files++;
	else if (type == FTW_D || type == FTW_DP)
		tree_dirs += ftw->level + 1;
	return 0;
}

static int old_visit(const char *path, const struct stat *st, int type)
{
	(void)st;
	calls++;
	return type == FTW_F && strstr(path, "stop") ? 7 : 0;
}

static int not_hidden(const struct dirent *d)
{
	calls++;
	return d->d_name[0] != '.';
}

static int by_name_desc(const struct dirent **a, const struct dirent **b)
{
	calls++;
	return strcmp((*b)->d_name, (*a)->d_name);
}

static void at_exit_first(void)
{
	printf("atexit handler, %d callbacks\n", calls);
}

static int once_runs;
static void once_init(void)
{
	once_runs++;
	calls++;
}

static pthread_key_t key;
static void key_destructor(void *value)
{
	printf("thread-specific destructor: %s\n", (const char *)value);
}

static void cleanup(void *what)
{
	printf("cleanup handler: %s\n", (const char *)what);
}

static void *thread_main(void *arg)
{
	pthread_setspecific(key, "value of the thread");
	pthread_cleanup_push(cleanup, arg);
	pthread_exit((void *)(long)strlen(arg));
	pthread_cleanup_pop(0);
	return 0;
}

static void make_tree(void)
{
	mkdir("cbtree", 0755);
	mkdir("cbtree/sub", 0755);
	mkdir("cbtree/sub/deeper", 0755);
	const char *files[] = {"cbtree/a", "cbtree/b", "cbtree/sub/c", "cbtree/sub/deeper/stop", "cbtree/.hidden"};
	for (unsigned i = 0; i < sizeof files / sizeof files[0]; i++)
		fclose(fopen(files[i], "w"));
}

int main(void)
{
	int values[] = {42, 7, 19, 3, 88, 61, 5, 23, 14, 70};
	size_t n = sizeof values / sizeof values[0];
	atexit(at_exit_first);

	qsort(values, n, sizeof values[0], by_value);
	printf("sorted:");
	for (size_t i = 0; i < n; i++)
		printf(" %d", values[i]);
	int want = 61;
	int *found = bsearch(&want, values, n, sizeof values[0], by_value);
	printf("\nbsearch 61 at %td\n", found ? found - values : -1);

	void *root = 0;
	for (size_t i = 0; i < n; i++)
		tsearch(&values[i], &root, by_value);
	printf("twalk:");
	twalk(root, show_node);
	int gone = 19;
	tdelete(&gone, &root, by_value);
	printf("\ntfind 19 after tdelete: %s\n", tfind(&gone, &root, by_value) ? "found" : "gone");
	tdestroy(root, free_nothing);

	int table[8] = {5, 9};
	size_t used = 2;
	int key9 = 9, key4 = 4;
	printf("lfind 9: %td, lsearch 4 adds: ", (int *)lfind(&key9, table, &used, sizeof(int), by_value) - table);
	lsearch(&key4, table, &used, sizeof(int), by_value);
	printf("%zu entries\n", used);

	make_tree();
	nftw("cbtree", visit, 8, FTW_PHYS | FTW_DEPTH);
	printf("nftw: %d files, depth sum %d\n", tree_files, tree_dirs);
	printf("ftw stops with %d\n", ftw("cbtree", old_visit, 8));
	struct dirent **names;
	int count = scandir("cbtree", &names, not_hidden, by_name_desc);
	printf("scandir:");
	for (int i = 0; i < count; i++) {
		printf(" %s", names[i]->d_name);
		free(names[i]);
	}
	free(names);
	printf("\n");

	static pthread_once_t once = PTHREAD_ONCE_INIT;
	static once_flag flag = ONCE_FLAG_INIT;
	for (int i = 0; i < 3; i++) {
		pthread_once(&once, once_init);
		call_once(&flag, once_init);
	}
	printf("once routines ran %d times\n", once_runs);

	pthread_key_create(&key, key_destructor);
	pthread_t t;
	void *result;
	pthread_create(&t, 0, thread_main, "from the thread");
	pthread_join(t, &result);
	printf("thread returned %ld\n", (long)result);
	return 0;
}

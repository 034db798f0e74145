// MIGRATE-MIN: 6
/* Processes made away from home: fork, vfork, posix_spawn, system and
 * popen called on a node run at home (the thread goes home for them), the
 * children are home's and are waited for from the node, and an exec from
 * a node replaces the program at home.  The program it execs (itself,
 * with an argument) moves too: the migrations counted are that one's.  A
 * forked child moves on nodes of its own, and one that raises SIGPIPE
 * there ends by that signal, as it would at home. */
#include <popcorn.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "children.h"

extern char **environ;

/* A forked child moves to the same node as its parent, both at once:
 * each has nodes of its own (a child moving on its parent's links would
 * send its thread to a node that serves the parent's). */
static void moving_child(int node)
{
	int fds[2];
	if (pipe(fds))
		return;
	popcorn_migrate(node); /* the parent's node is started */
	popcorn_migrate(0);
	fflush(stdout);
	pid_t child = fork();
	if (child == 0) {
		long s = 0;
		for (int i = 0; i < 10; i++) {
			popcorn_migrate(node);
			s += work(i);
			popcorn_migrate(0);
		}
		_exit(write(fds[1], &s, sizeof s) == sizeof s ? 0 : 1);
	}
	long s = 0, from_child = 0;
	for (int i = 0; i < 10; i++) {
		popcorn_migrate(node);
		s += work(i + 1);
		popcorn_migrate(0);
	}
	if (read(fds[0], &from_child, sizeof from_child) != sizeof from_child)
		from_child = -1;
	int status = status_of(child);
	close(fds[0]);
	close(fds[1]);
	printf("node %d: moving child %ld, status %d, parent %ld\n", node, from_child, status, s);
}

int main(int argc, char **argv)
{
	if (argc > 1) { /* the program exec'd at the end */
		for (int i = 0; i < 3; i++) {
			popcorn_migrate(1);
			popcorn_migrate(2);
		}
		printf("exec'd with %s\n", argv[1]);
		return 0;
	}
	for (int node = 2; node >= 1; node--) {
		moving_child(node);
		fflush(stdout);
		pid_t raising = fork();
		if (raising == 0) {
			popcorn_migrate(node);
			raise(SIGPIPE);
			_exit(5);
		}
		int how;
		waitpid(raising, &how, 0);
		printf("node %d: a child raising SIGPIPE: signalled %d, by %d\n", node,
		       WIFSIGNALED(how), WIFSIGNALED(how) ? WTERMSIG(how) : -1);
		popcorn_migrate(node);
		fflush(stdout);
		pid_t child = fork();
		if (child == 0)
			_exit(7);
		popcorn_migrate(node);
		printf("node %d: fork: child status %d\n", node, status_of(child));

		popcorn_migrate(node);
		fflush(stdout);
		child = vfork();
		if (child == 0)
			_exit(9);
		popcorn_migrate(node);
		printf("node %d: vfork: child status %d\n", node, status_of(child));

		popcorn_migrate(node);
		fflush(stdout);
		char *echo[] = {"echo", "spawned", NULL};
		int error = posix_spawnp(&child, "echo", NULL, NULL, echo, environ);
		popcorn_migrate(node);
		printf("node %d: posix_spawnp: %d, status %d\n", node, error, status_of(child));

		popcorn_migrate(node);
		fflush(stdout);
		printf("node %d: system: %d\n", node, WEXITSTATUS(system("exit 3")));

		popcorn_migrate(node);
		FILE *p = popen("echo piped", "r");
		popcorn_migrate(node);
		char line[64] = "";
		if (p && fgets(line, sizeof line, p))
			line[strcspn(line, "\n")] = 0;
		printf("node %d: popen: '%s', pclose %d\n", node, line, p ? WEXITSTATUS(pclose(p)) : -1);
	}
	popcorn_migrate(2);
	fflush(stdout);
	char *again[] = {argv[0], "an argument", NULL};
	execv("/proc/self/exe", again);
	perror("execv");
	return 1;
}

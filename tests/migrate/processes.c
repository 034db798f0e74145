// MIGRATE-MIN: 6
/* Processes made away from home: fork, vfork, posix_spawn, system and
 * popen called on a node run at home (the thread goes home for them), the
 * children are home's and are waited for from the node, and an exec from
 * a node replaces the program at home.  The program it execs (itself,
 * with an argument) moves too: the migrations counted are that one's. */
#include <popcorn.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int status_of(pid_t pid)
{
	int status;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
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

// POPCORN-MIGRATE: no, System V IPC calls are not forwarded yet
/* System V semaphores and alternate signal stacks, whose structures and
 * limits x86-64's kernel lays out differently: struct semid_ds through
 * semctl (IPC_STAT, IPC_SET), and sigaltstack's minimum size. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/sem.h>

int main(void)
{
	int id = semget(IPC_PRIVATE, 3, IPC_CREAT | 0600);
	if (id < 0) {
		printf("semget failed: errno %d\n", errno);
		return 1;
	}
	struct semid_ds ds = {0};
	printf("IPC_STAT %d: nsems %lu mode %o\n", semctl(id, 0, IPC_STAT, &ds),
	       (unsigned long)ds.sem_nsems, ds.sem_perm.mode & 0777);
	ds.sem_perm.mode = 0640;
	printf("IPC_SET %d\n", semctl(id, 0, IPC_SET, &ds));
	struct semid_ds again = {0};
	semctl(id, 0, IPC_STAT, &again);
	printf("after IPC_SET: nsems %lu mode %o ctime set %d\n", (unsigned long)again.sem_nsems,
	       again.sem_perm.mode & 0777, again.sem_ctime != 0);
	printf("SETVAL %d GETVAL %d\n", semctl(id, 1, SETVAL, 7), semctl(id, 1, GETVAL));
	struct sembuf op = {.sem_num = 1, .sem_op = -2};
	printf("semop %d value now %d\n", semop(id, &op, 1), semctl(id, 1, GETVAL));
	printf("IPC_RMID %d\n", semctl(id, 0, IPC_RMID));

	stack_t small = {.ss_sp = malloc(4096), .ss_size = 4096};
	errno = 0;
	printf("sigaltstack of 4096 bytes: %d ENOMEM %d\n", sigaltstack(&small, 0), errno == ENOMEM);
	stack_t big = {.ss_sp = malloc(SIGSTKSZ), .ss_size = SIGSTKSZ};
	printf("sigaltstack of SIGSTKSZ (%d) bytes: %d\n", (int)SIGSTKSZ, sigaltstack(&big, 0));
	printf("MINSIGSTKSZ %d\n", (int)MINSIGSTKSZ);
	return 0;
}

// POPCORN-MIGRATE-EVERY: 1
/* System V semaphores and message queues, and alternate signal stacks,
 * whose structures and limits x86-64's kernel lays out differently: struct
 * semid_ds through semctl (IPC_STAT, IPC_SET), and sigaltstack's minimum
 * size.  Away from home the IPC calls run at home, whose kernel holds the
 * objects, with struct semid_ds converted between the ISAs' layouts. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <time.h>

struct message {
	long type;
	char text[32];
};

static void message_queue(void)
{
	int q = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	if (q < 0) {
		printf("msgget failed: errno %d\n", errno);
		return;
	}
	struct message out = {2, "second"}, first = {1, "first"}, in;
	printf("msgsnd %d %d\n", msgsnd(q, &out, strlen(out.text) + 1, 0),
	       msgsnd(q, &first, strlen(first.text) + 1, 0));
	struct msqid_ds ds;
	printf("IPC_STAT %d: %lu messages, %lu bytes, mode %o\n", msgctl(q, IPC_STAT, &ds),
	       (unsigned long)ds.msg_qnum, (unsigned long)ds.__msg_cbytes, ds.msg_perm.mode & 0777);
	memset(&in, 0, sizeof in);
	long n = msgrcv(q, &in, sizeof in.text, 1, 0); /* type 1 first */
	printf("msgrcv type 1: %ld bytes, type %ld, '%s'\n", n, in.type, in.text);
	memset(&in, 0, sizeof in);
	n = msgrcv(q, &in, sizeof in.text, 0, 0);
	printf("msgrcv any: %ld bytes, type %ld, '%s'\n", n, in.type, in.text);
	errno = 0;
	n = msgrcv(q, &in, sizeof in.text, 0, IPC_NOWAIT);
	printf("msgrcv on an empty queue: %ld ENOMSG %d\n", n, errno == ENOMSG);
	printf("IPC_RMID %d\n", msgctl(q, IPC_RMID, 0));
}

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
	unsigned short all[3] = {4, 5, 6}, back[3] = {0};
	printf("SETALL %d GETALL %d:", semctl(id, 0, SETALL, all), semctl(id, 0, GETALL, back));
	for (int i = 0; i < 3; i++)
		printf(" %u", back[i]);
	printf("\n");
	struct sembuf take = {.sem_num = 0, .sem_op = -5, .sem_flg = 0};
	struct timespec soon = {0, 1000000};
	errno = 0;
	printf("semtimedop beyond the value: %d EAGAIN %d\n", semtimedop(id, &take, 1, &soon),
	       errno == EAGAIN);
	printf("IPC_RMID %d\n", semctl(id, 0, IPC_RMID));
	message_queue();

	stack_t small = {.ss_sp = malloc(4096), .ss_size = 4096};
	errno = 0;
	printf("sigaltstack of 4096 bytes: %d ENOMEM %d\n", sigaltstack(&small, 0), errno == ENOMEM);
	stack_t big = {.ss_sp = malloc(SIGSTKSZ), .ss_size = SIGSTKSZ};
	printf("sigaltstack of SIGSTKSZ (%d) bytes: %d\n", (int)SIGSTKSZ, sigaltstack(&big, 0));
	printf("MINSIGSTKSZ %d\n", (int)MINSIGSTKSZ);
	return 0;
}

/* floor: the least that moving pages between two processes of this
 * machine can cost, in two numbers (nanoseconds, medians of 5 rounds):
 *
 * - one copy of a 4 KiB page that is in no cache: where a processor copies
 *   the bytes, a page moved costs at least this (a socket copies each page
 *   twice; reading the other process's memory, as MPI's single-copy
 *   transfers do, once).  Only a network card writing into the
 *   destination's memory itself (RDMA) moves a page for less.  256 MiB,
 *   eight times a 32 MiB last-level cache, copied page by page into memory
 *   already mapped (no page fault is counted).
 * - a round trip of a 16-byte message and its 16-byte answer over a Unix
 *   socket pair, each side polling as the runtime does (receive without
 *   waiting, yield, again): what a page request costs before its pages.
 *
 * Built with plain clang by bench/periodic.sh, which bounds with them the
 * share a moving program could keep. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <time.h>

enum { PageBytes = 4096, Rounds = 5, Trips = 20000 };

static double seconds(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int compare(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v)
{
  qsort(v, Rounds, sizeof v[0], compare);
  return v[Rounds / 2];
}

static double copyNs(size_t bytes)
{
  size_t pages = bytes / PageBytes;
  char *from = mmap(0, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  char *to = mmap(0, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (from == MAP_FAILED || to == MAP_FAILED) {
    fprintf(stderr, "floor: cannot map 2 x %zu MiB\n", bytes >> 20);
    exit(1);
  }
  memset(from, 1, bytes);
  memset(to, 2, bytes);
  double ns[Rounds];
  unsigned long check = 0;
  for (int r = 0; r < Rounds; r++) {
    from[(size_t)r * PageBytes] = (char)(r + 1);
    double start = seconds();
    for (size_t p = 0; p < pages; p++)
      memcpy(to + p * PageBytes, from + p * PageBytes, PageBytes);
    ns[r] = (seconds() - start) * 1e9 / (double)pages;
    /* Read what was copied, so that the copies are not left out. */
    for (size_t p = 0; p < pages; p += 97)
      check += (unsigned char)to[p * PageBytes];
  }
  if (!check)
    exit(1); /* never: every byte read is 1 or more */
  munmap(from, bytes);
  munmap(to, bytes);
  return median(ns);
}

static void exchange(int fd, char *message, int first)
{
  if (first && write(fd, message, 16) != 16)
    exit(1);
  for (size_t got = 0; got < 16;) {
    ssize_t n = recv(fd, message + got, 16 - got, MSG_DONTWAIT);
    if (n > 0)
      got += (size_t)n;
    else if (n == 0)
      exit(1);
    else
      sched_yield();
  }
  if (!first && write(fd, message, 16) != 16)
    exit(1);
}

static double roundTripNs(void)
{
  int link[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, link) != 0) {
    perror("floor: socketpair");
    exit(1);
  }
  char message[16] = "page request";
  pid_t child = fork();
  if (child == 0) {
    for (int i = 0; i < Rounds * Trips; i++)
      exchange(link[1], message, 0);
    _exit(0);
  }
  double ns[Rounds];
  for (int r = 0; r < Rounds; r++) {
    double start = seconds();
    for (int i = 0; i < Trips; i++)
      exchange(link[0], message, 1);
    ns[r] = (seconds() - start) * 1e9 / Trips;
  }
  waitpid(child, 0, 0);
  return median(ns);
}

int main(int argc, char **argv)
{
  size_t mib = argc > 1 ? (size_t)atoi(argv[1]) : 256;
  printf("%.0f %.0f\n", copyNs(mib << 20), roundTripNs());
  return 0;
}

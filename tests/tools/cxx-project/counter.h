#ifndef COUNTER_H
#define COUNTER_H
#ifdef __cplusplus
extern "C" {
#endif
long counter_add(long n);
#ifdef __cplusplus
}
#endif
#endif

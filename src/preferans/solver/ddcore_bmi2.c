/* The search of ddcore.c compiled for CPUs with BMI1, BMI2 and LZCNT (see the note at the top
 * of ddcore.c); dd_new picks this copy at run time when the CPU has them.  Only GCC on x86-64:
 * elsewhere this file is empty and the generic copy runs. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#pragma GCC target("popcnt,bmi,bmi2,lzcnt")
#define DD_VARIANT bmi2
#include "ddcore.c"
#else
typedef int dd_bmi2_unused; /* ISO C wants a translation unit to declare something */
#endif

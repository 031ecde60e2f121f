/* lines.h (cpu): the host kernels along one dim (kernels/lines.h does one line): scans, whole-line
 * products and stable sorts over every line of a contiguous (outer, n, inner) block. */
#ifndef MT_KERNELS_CPU_LINES_H
#define MT_KERNELS_CPU_LINES_H

#include "../kernel_types.h"

/* 0, or -1 when the dtype is not one the line kernels take */
int mt_cpu_scan(const mt_scan_args *args);

/* 0, or -1 when no memory was left for the scratch runs (or the dtype is not one they take) */
int mt_cpu_sort(const mt_sort_args *args);

#endif

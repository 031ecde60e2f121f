/* gather.h: the host loop of the indexing ops along one dim (gather, scatter, scatter_add,
 * index_select, index_add_) over kernel_types.h's mt_index_dim_args, for memory the host can address.
 * It never raises or looks at tensors and devices; index values outside the indexed size are skipped
 * (the op layer has rejected them before). */
#ifndef MT_KERNELS_CPU_GATHER_H
#define MT_KERNELS_CPU_GATHER_H

#include "../kernel_types.h"

void mt_cpu_index_dim(const mt_index_dim_args *args);

#endif

/* MUBUF / MTBUF executors (in progress: not executed yet). */
#include "isa/rdna3/exec_mem.h"

rdna3_exec_fn rdna3_buf_handler(const rdna3_inst *in) { (void)in; return NULL; }

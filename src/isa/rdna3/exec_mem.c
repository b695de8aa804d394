/* PLACEHOLDER — replaced by the AMD memory work. */
#include "isa/rdna3/rdna3.h"
rdna3_exec_fn rdna3_mem_handler(const rdna3_inst *in) { (void)in; return NULL; }

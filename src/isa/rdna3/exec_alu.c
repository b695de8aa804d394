/* PLACEHOLDER — replaced by the RDNA3 ALU executor work. */
#include "isa/rdna3/rdna3.h"
rdna3_exec_fn rdna3_alu_handler(const rdna3_inst *in) { (void)in; return NULL; }

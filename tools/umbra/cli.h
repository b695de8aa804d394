/* The umbra CLI: a thin client of libumbra. One file per command family. */
#ifndef UMBRA_CLI_H
#define UMBRA_CLI_H

int cmd_ventus(int argc, char **argv);   /* cmd_ventus.c: umbra ventus run|disasm ... */
int cmd_run(int argc, char **argv);      /* cmd_rdna3.c: umbra run kernel.co --kernel ... */
int cmd_cc(int argc, char **argv);       /* cmd_rdna3.c: umbra cc kernel.cl -o kernel.co */
int cmd_disasm(int argc, char **argv);   /* cmd_rdna3.c: umbra disasm kernel.co */
int cmd_opencl(int argc, char **argv);   /* cmd_opencl.c: umbra opencl [options] -- PROGRAM ARGS... */
int cmd_annotate(int argc, char **argv); /* cmd_annotate.c: umbra annotate kernel.co --kernel ... */

#endif

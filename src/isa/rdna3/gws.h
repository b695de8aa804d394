/* RDNA3 Global Wave Sync (exec_gws.c): the 64 barrier/semaphore resources a cooperative launch
 * owns, and how waves wait at them (umb_frontend.wait_poll, UMB_WARP_WAITING).
 */
#ifndef UMBRA_RDNA3_GWS_H
#define UMBRA_RDNA3_GWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa/rdna3/rdna3.h"

#define RDNA3_GWS_RESOURCES 64u
#define RDNA3_GWS_COUNTER_MASK 0xfffu   /* each resource's counter has 12 bits */

/* rdna3_wave.gws_wait */
enum { RDNA3_GWS_WAIT_NONE = 0, RDNA3_GWS_WAIT_BARRIER, RDNA3_GWS_WAIT_SEMAPHORE };

typedef struct rdna3_gws rdna3_gws;

/* A launch's resources, all zero (counter 0, flag 0, no type); NULL on host OOM. */
rdna3_gws *rdna3_gws_create(void);
void rdna3_gws_destroy(rdna3_gws *g);

/* What ds_gws_init does to resource rid (counter = value, flag = 0): the runtime's initialisation
 * of resource 0 before a cooperative launch. */
void rdna3_gws_init(rdna3_gws *g, unsigned rid, uint32_t value);

/* The executor of a DS instruction with gds set: ds_gws_init/_barrier/_sema_v/_sema_br/_sema_p/
 * _sema_release_all; NULL for the other GDS opcodes. */
rdna3_exec_fn rdna3_gws_handler(const rdna3_inst *in);

/* A UMB_WARP_WAITING wave: true (and the wave RUNNABLE again) if its barrier completed or its
 * semaphore released it. Any host thread may call it. */
bool rdna3_gws_poll(rdna3_wave *w);

/* "waits at ds_gws_barrier, GWS resource 0 (...)" for deadlock reports. */
void rdna3_gws_describe(rdna3_wave *w, char *buf, size_t len);

#endif

/* umbra — a GPGPU simulator library.
 *
 * The public API, one header per concern:
 *   umbra/device.h   device configuration, sparse device memory, errors
 *   umbra/stats.h    statistics of a launch (instruction classes, memory traffic, SIMT efficiency)
 *   umbra/ventus.h   the Ventus (乘影) front end: launches in the Ventus driver's terms
 *   umbra/rdna3.h    the AMD RDNA3 (gfx1100) front end: code objects, launches, single-step
 *   umbra/vt_driver.h  a host API compatible with the Ventus driver (vt_* functions)
 */
#ifndef UMBRA_UMBRA_H
#define UMBRA_UMBRA_H

#include "umbra/device.h"
#include "umbra/stats.h"

#define UMBRA_VERSION_STRING "0.1.0"

#endif

/* Entry points of features the device does not have (pipes, native kernels, device-side
 * enqueue, SPIR-V): each exists and returns the error the specification names. */
#include <string.h>

#include "ocl.h"

/* ---------------- optional OpenCL 2.x/3.0 features the device does not report ---------------- */

CL_API_ENTRY cl_mem CL_API_CALL clCreatePipe(cl_context ctx, cl_mem_flags flags, cl_uint packet, cl_uint max,
                                             const cl_pipe_properties *props, cl_int *errcode_ret)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) OCL_ERR(CL_INVALID_CONTEXT);
    OCL_ERR(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem m, cl_pipe_info param, size_t size, void *value, size_t *ret)
{
    return CL_INVALID_MEM_OBJECT;
}

CL_API_ENTRY cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context ctx, cl_device_id d, cl_command_queue q)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) return CL_INVALID_CONTEXT;
    return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program p, cl_uint id, size_t size,
                                                                   const void *value)
{
    if (!ocl_valid(p, OCL_PROGRAM)) return CL_INVALID_PROGRAM;
    return CL_INVALID_OPERATION;   /* programs are not made from SPIR-V */
}

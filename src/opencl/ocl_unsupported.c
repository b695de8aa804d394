/* Entry points of features the device does not have (pipes, SVM, native
 * kernels, OpenCL 2.x queries): each exists and returns the error the specification names. */
#include <string.h>

#include "ocl.h"

/* ---------------- OpenCL 2.x features of a 1.2 platform ---------------- */

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

CL_API_ENTRY void *CL_API_CALL clSVMAlloc(cl_context ctx, cl_svm_mem_flags flags, size_t size, cl_uint align)
{
    return NULL;   /* no SVM: the specified failure value */
}

CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context ctx, void *ptr) {}

static cl_int svm_command(cl_command_queue q)
{
    return ocl_valid(q, OCL_QUEUE) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue q, cl_uint np, void *ptrs[],
                                                 void (CL_CALLBACK *fn)(cl_command_queue, cl_uint, void *[], void *),
                                                 void *data, cl_uint n, const cl_event *l, cl_event *e)
{
    return svm_command(q);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue q, cl_bool b, void *d, const void *s, size_t size,
                                                   cl_uint n, const cl_event *l, cl_event *e)
{
    return svm_command(q);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue q, void *p, const void *pat, size_t ps,
                                                    size_t size, cl_uint n, const cl_event *l, cl_event *e)
{
    return svm_command(q);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue q, cl_bool b, cl_map_flags f, void *p, size_t size,
                                                cl_uint n, const cl_event *l, cl_event *e)
{
    return svm_command(q);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue q, void *p, cl_uint n, const cl_event *l,
                                                  cl_event *e)
{
    return svm_command(q);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue q, cl_uint np, const void **p,
                                                       const size_t *sizes, cl_mem_migration_flags f, cl_uint n,
                                                       const cl_event *l, cl_event *e)
{
    return svm_command(q);
}

CL_API_ENTRY cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context ctx, cl_device_id d, cl_command_queue q)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) return CL_INVALID_CONTEXT;
    return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id d, cl_ulong *dev, cl_ulong *host)
{
    if (d != ocl_device()) return CL_INVALID_DEVICE;
    return CL_INVALID_OPERATION;   /* OpenCL 2.1 */
}

CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id d, cl_ulong *host)
{
    if (d != ocl_device()) return CL_INVALID_DEVICE;
    return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel k, cl_int *errcode_ret)
{
    if (!ocl_valid(k, OCL_KERNEL)) OCL_ERR(CL_INVALID_KERNEL);
    OCL_ERR(CL_INVALID_OPERATION);   /* OpenCL 2.1 */
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel k, cl_device_id d, cl_kernel_sub_group_info param,
                                                        size_t in_size, const void *in, size_t size, void *value,
                                                        size_t *ret)
{
    if (!ocl_valid(k, OCL_KERNEL)) return CL_INVALID_KERNEL;
    return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program p, cl_uint id, size_t size,
                                                                   const void *value)
{
    if (!ocl_valid(p, OCL_PROGRAM)) return CL_INVALID_PROGRAM;
    return CL_INVALID_OPERATION;   /* programs are not made from SPIR-V */
}

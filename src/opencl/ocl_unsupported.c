/* Entry points of features the device does not have (images, samplers, pipes, native kernels,
 * device-side enqueue, SPIR-V): each exists and returns the error the specification
 * names. */
#include <string.h>

#include "ocl.h"

/* ---------------- images (CL_DEVICE_IMAGE_SUPPORT is false) ---------------- */

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context ctx, cl_mem_flags flags, const cl_image_format *format,
                                              const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) OCL_ERR(CL_INVALID_CONTEXT);
    if (!format) OCL_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    if (!desc) OCL_ERR(CL_INVALID_IMAGE_DESCRIPTOR);
    OCL_ERR(CL_INVALID_OPERATION);   /* no device in the context supports images */
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context ctx, const cl_mem_properties *props,
                                                            cl_mem_flags flags, const cl_image_format *format,
                                                            const cl_image_desc *desc, void *host_ptr,
                                                            cl_int *errcode_ret)
{
    return clCreateImage(ctx, flags, format, desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context ctx, cl_mem_flags flags, const cl_image_format *format,
                                                size_t w, size_t h, size_t pitch, void *host_ptr, cl_int *errcode_ret)
{
    cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h,
                           .image_row_pitch = pitch };
    return clCreateImage(ctx, flags, format, &desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context ctx, cl_mem_flags flags, const cl_image_format *format,
                                                size_t w, size_t h, size_t d, size_t row_pitch, size_t slice_pitch,
                                                void *host_ptr, cl_int *errcode_ret)
{
    cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = w, .image_height = h,
                           .image_depth = d, .image_row_pitch = row_pitch, .image_slice_pitch = slice_pitch };
    return clCreateImage(ctx, flags, format, &desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context ctx, cl_mem_flags flags, cl_mem_object_type type,
                                                           cl_uint n, cl_image_format *formats, cl_uint *num)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) return CL_INVALID_CONTEXT;
    if (n == 0 && formats) return CL_INVALID_VALUE;
    switch (type) {
    case CL_MEM_OBJECT_IMAGE1D: case CL_MEM_OBJECT_IMAGE1D_BUFFER: case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D: case CL_MEM_OBJECT_IMAGE2D_ARRAY: case CL_MEM_OBJECT_IMAGE3D: break;
    default: return CL_INVALID_VALUE;
    }
    if (num) *num = 0;
    return CL_SUCCESS;
}

/* No image object can exist, so every image handle is invalid. */
CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem m, cl_image_info param, size_t size, void *value, size_t *ret)
{
    return CL_INVALID_MEM_OBJECT;
}

static cl_int image_command(cl_command_queue q)
{
    return ocl_valid(q, OCL_QUEUE) ? CL_INVALID_MEM_OBJECT : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue q, cl_mem m, cl_bool b, const size_t *o,
                                                   const size_t *r, size_t rp, size_t sp, void *p, cl_uint n,
                                                   const cl_event *l, cl_event *e)
{
    return image_command(q);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue q, cl_mem m, cl_bool b, const size_t *o,
                                                    const size_t *r, size_t rp, size_t sp, const void *p, cl_uint n,
                                                    const cl_event *l, cl_event *e)
{
    return image_command(q);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue q, cl_mem m, const void *c, const size_t *o,
                                                   const size_t *r, cl_uint n, const cl_event *l, cl_event *e)
{
    return image_command(q);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue q, cl_mem s, cl_mem d, const size_t *so,
                                                   const size_t *dor, const size_t *r, cl_uint n, const cl_event *l,
                                                   cl_event *e)
{
    return image_command(q);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem s, cl_mem d, const size_t *so,
                                                           const size_t *r, size_t off, cl_uint n, const cl_event *l,
                                                           cl_event *e)
{
    return image_command(q);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem s, cl_mem d, size_t off,
                                                           const size_t *dor, const size_t *r, cl_uint n,
                                                           const cl_event *l, cl_event *e)
{
    return image_command(q);
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(cl_command_queue q, cl_mem m, cl_bool b, cl_map_flags f,
                                                 const size_t *o, const size_t *r, size_t *rp, size_t *sp, cl_uint n,
                                                 const cl_event *l, cl_event *e, cl_int *errcode_ret)
{
    OCL_ERR(image_command(q));
}

/* ---------------- samplers ---------------- */

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context ctx, cl_bool norm, cl_addressing_mode am,
                                                    cl_filter_mode fm, cl_int *errcode_ret)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) OCL_ERR(CL_INVALID_CONTEXT);
    OCL_ERR(CL_INVALID_OPERATION);   /* images are not supported */
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context ctx, const cl_sampler_properties *props,
                                                                  cl_int *errcode_ret)
{
    if (!ocl_valid(ctx, OCL_CONTEXT)) OCL_ERR(CL_INVALID_CONTEXT);
    OCL_ERR(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler s) { return CL_INVALID_SAMPLER; }
CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler s) { return CL_INVALID_SAMPLER; }

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler s, cl_sampler_info param, size_t size, void *value,
                                                 size_t *ret)
{
    return CL_INVALID_SAMPLER;
}

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

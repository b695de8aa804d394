/* Contexts. */
#include <stdlib.h>
#include <string.h>

#include "ocl.h"

/* Properties: only CL_CONTEXT_PLATFORM (once, our platform) and CL_CONTEXT_INTEROP_USER_SYNC. */
static cl_int check_properties(const cl_context_properties *props, cl_context c)
{
    size_t n = 0;
    bool seen_platform = false, seen_sync = false;
    for (; props && props[n]; n += 2) {
        if (n + 2 >= sizeof c->props / sizeof c->props[0]) return CL_INVALID_PROPERTY;
        if (props[n] == CL_CONTEXT_PLATFORM) {
            if (seen_platform) return CL_INVALID_PROPERTY;
            if ((cl_platform_id)props[n + 1] != ocl_platform()) return CL_INVALID_PLATFORM;
            seen_platform = true;
        } else if (props[n] == CL_CONTEXT_INTEROP_USER_SYNC) {
            if (seen_sync) return CL_INVALID_PROPERTY;
            seen_sync = true;
        } else {
            return CL_INVALID_PROPERTY;
        }
        c->props[n] = props[n], c->props[n + 1] = props[n + 1];
    }
    c->props_size = props ? (n + 1) * sizeof(cl_context_properties) : 0;
    return CL_SUCCESS;
}

static cl_context new_context(const cl_context_properties *props,
                              void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *data,
                              cl_int *errcode_ret)
{
    if (!notify && data) OCL_ERR(CL_INVALID_VALUE);
    cl_context c = ocl_obj_alloc(sizeof *c);
    if (!c) OCL_ERR(CL_OUT_OF_HOST_MEMORY);
    cl_int st = check_properties(props, c);
    if (st) {
        ocl_obj_free(c);
        OCL_ERR(st);
    }
    c->notify = notify, c->notify_data = data;
    ocl_register(c, OCL_CONTEXT);
    OCL_OK(c);
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(const cl_context_properties *props, cl_uint n,
                                                    const cl_device_id *devices,
                                                    void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
                                                    void *data, cl_int *errcode_ret)
{
    if (!devices || n == 0) OCL_ERR(CL_INVALID_VALUE);
    for (cl_uint i = 0; i < n; i++)
        if (!devices[i] || devices[i] != ocl_device()) OCL_ERR(CL_INVALID_DEVICE);
    return new_context(props, notify, data, errcode_ret);
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties *props, cl_device_type type,
                                                            void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
                                                            void *data, cl_int *errcode_ret)
{
    cl_uint num = 0;
    cl_int st = clGetDeviceIDs(ocl_platform(), type, 0, NULL, &num);
    if (st) OCL_ERR(st);
    return new_context(props, notify, data, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context c)
{
    if (!ocl_valid(c, OCL_CONTEXT)) return CL_INVALID_CONTEXT;
    ocl_retain(c);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context c)
{
    if (!ocl_valid(c, OCL_CONTEXT)) return CL_INVALID_CONTEXT;
    if (ocl_release_last(c)) ocl_free_object(c);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context c, cl_context_info param, size_t size, void *value,
                                                 size_t *ret)
{
    if (!ocl_valid(c, OCL_CONTEXT)) return CL_INVALID_CONTEXT;
    switch (param) {
    case CL_CONTEXT_REFERENCE_COUNT: OCL_INFO(cl_uint, atomic_load(&c->h.refs));
    case CL_CONTEXT_NUM_DEVICES: OCL_INFO(cl_uint, 1);
    case CL_CONTEXT_DEVICES: OCL_INFO(cl_device_id, ocl_device());
    case CL_CONTEXT_PROPERTIES: return ocl_info(size, value, ret, c->props, c->props_size);
    default: return CL_INVALID_VALUE;
    }
}

CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(cl_context c, void (CL_CALLBACK *fn)(cl_context, void *),
                                                               void *data)
{
    if (!ocl_valid(c, OCL_CONTEXT)) return CL_INVALID_CONTEXT;
    if (!fn) return CL_INVALID_VALUE;
    return ocl_add_release_callback(&c->destructors, &(ocl_release_callback){ .fn = fn, .data = data });
}

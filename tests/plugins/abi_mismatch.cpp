// SPDX-License-Identifier: Apache-2.0
//
// A plugin that says it was built for a hook ABI this build does not have,
// as one built against a future SDK would: the loader must refuse it with
// both version numbers, before it touches the manifest.
#include <wakebench/policy.h>

extern "C" __attribute__((visibility("default"))) int wakebench_hook_abi_version()
{
    return WAKEBENCH_HOOK_ABI_VERSION + 98;
}

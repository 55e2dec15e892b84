/*
 * cc_build: $CC on the generated C, renamed into place (cc_build.h).
 */
#include "cc_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "object/command.h"
#include "object/error.h"
#include "object/output_file.h"

/* $CC -O2 -fPIC -shared ... -o SO C, within the limits of object/command.
 * Returns 0, or -1 with ERR. */
static int run_compiler(const char *so, const char *c, char *err, size_t errlen)
{
    size_t ncc;
    char **cc = command_cc(&ncc);
    char **argv = cc ? calloc(ncc + 8, sizeof *argv) : NULL;
    if (!argv) {
        command_words_free(cc);
        return error_set(err, errlen, "out of memory");
    }
    static char *const flags[] = {"-O2", "-fPIC", "-shared", "-fno-asynchronous-unwind-tables", "-o"};
    size_t k = 0;
    for (size_t i = 0; i < ncc; i++)
        argv[k++] = cc[i];
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        argv[k++] = flags[i];
    argv[k++] = (char *)so;
    argv[k++] = (char *)c;
    struct command_result res;
    int rc = command_run(argv, 0, NULL, &res);
    if (rc != 0) {
        char who[256];
        snprintf(who, sizeof who, "the C compiler (%s)", cc[0]);
        if (res.end == COMMAND_EXITED)
            error_set(err, errlen, "%s failed on the generated code", who);
        else
            command_failure(&res, who, err, errlen);
    }
    command_words_free(cc);
    free(argv);
    return rc == 0 ? 0 : -1;
}

int cc_build_shared(const char *c_path, const char *target, char *err, size_t errlen)
{
    struct output_temp so_tmp;
    if (output_temp_create(&so_tmp, target, ".so", err, errlen) != 0)
        return CC_BUILD_TARGET;
    close(so_tmp.fd);
    if (run_compiler(so_tmp.path, c_path, err, errlen) != 0) {
        output_temp_discard(&so_tmp);
        return CC_BUILD_COMPILER;
    }
    if (output_temp_commit(&so_tmp, target, err, errlen) != 0)
        return CC_BUILD_TARGET;
    return 0;
}

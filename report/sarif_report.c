/*
 * sarif_report: SARIF 2.1.0 rendering.
 */
#include "sarif_report.h"

#include "semantics/table_print.h"

static int results_written;

static const char *kind_help(enum finding_kind k)
{
    switch (k) {
    case FINDING_CFA_MISMATCH: return "The CFA rule of the unwind table does not give the frame's CFA here.";
    case FINDING_RA_MISMATCH: return "The return address rule does not find the return address here.";
    case FINDING_REG_MISMATCH: return "A callee-saved register's rule gives another value than it had on entry.";
    case FINDING_CLOBBERED: return "A callee-saved register is changed while the table says it is unchanged.";
    case FINDING_IMPRECISE: return "A rule is undefined where the value is known.";
    case FINDING_FDE_GAP: return "Code inside a function that no FDE covers.";
    case FINDING_FDE_OVERLAP: return "Two FDEs cover the same address.";
    case FINDING_FDE_NO_CODE: return "An FDE covers addresses that hold no code.";
    case FINDING_MALFORMED_CFI: return "An FDE's call-frame program does not decode.";
    case FINDING_CALL_CLOBBERED_RULE:
        return "At a call, a rule reads a register the call may change: unwinding through the call reads the callee's value.";
    default: return "";
    }
}

void sarif_begin(FILE *out, const char *version)
{
    results_written = 0;
    fputs("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
          "\"runs\":[{\"tool\":{\"driver\":{\"name\":\"dwcheck\",\"version\":", out);
    print_json_string(out, version);
    fputs(",\"rules\":[", out);
    for (int k = 0; k < FINDING_KINDS; k++) {
        fprintf(out, "%s{\"id\":\"%s\",\"shortDescription\":{\"text\":", k ? "," : "",
                finding_kind_name((enum finding_kind)k));
        print_json_string(out, kind_help((enum finding_kind)k));
        fputs("}}", out);
    }
    fputs("]}},\"results\":[", out);
}

static const char *sarif_level(enum severity s)
{
    return s == SEVERITY_ERROR ? "error" : s == SEVERITY_WARNING ? "warning" : "note";
}

void sarif_file(FILE *out, const char *path, const struct check_result *r)
{
    for (size_t i = 0; i < r->nfindings; i++) {
        const struct finding *f = &r->findings[i];
        char where[200], text[512];
        if (f->function[0])
            snprintf(where, sizeof where, "%s+0x%llx", f->function,
                     (unsigned long long)(f->address - f->function_start));
        else
            snprintf(where, sizeof where, "0x%llx", (unsigned long long)f->address);
        snprintf(text, sizeof text, "%s: %s", where, f->message);
        fprintf(out, "%s{\"ruleId\":\"%s\",\"level\":\"%s\",\"message\":{\"text\":",
                results_written++ ? "," : "", finding_kind_name(f->kind), sarif_level(f->severity));
        print_json_string(out, text);
        fputs("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":", out);
        /* An absolute path becomes a file: URI; a relative one stays a relative reference. */
        char uri[4200];
        snprintf(uri, sizeof uri, "%s%s", path[0] == '/' ? "file://" : "", path);
        print_json_string(out, uri);
        fprintf(out, "},\"address\":{\"absoluteAddress\":%llu}},\"logicalLocations\":[{\"name\":",
                (unsigned long long)f->address);
        print_json_string(out, f->function[0] ? f->function : where);
        fputs(",\"kind\":\"function\"}]}],\"properties\":{\"dwarf\":", out);
        print_json_string(out, f->dwarf);
        fputs(",\"synth\":", out);
        print_json_string(out, f->synth);
        fprintf(out, ",\"addresses\":%zu}}", f->count);
    }
}

void sarif_end(FILE *out)
{
    fputs("]}]}\n", out);
}

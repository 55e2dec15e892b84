/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lsda: parse .gcc_except_table call-site tables.
 */
#include "lsda.h"

#include "byte_reader.h"
#include "eh_pointer.h"

int lsda_parse(const uint8_t *bytes, uint64_t size, uint64_t sec_addr, uint64_t lsda_addr,
               uint64_t func_start, lsda_site_fn on_site, void *arg, const char **error)
{
    if (lsda_addr < sec_addr || lsda_addr - sec_addr >= size) {
        *error = "LSDA lies outside .gcc_except_table";
        return -1;
    }
    struct byte_reader r;
    byte_reader_init(&r, bytes, (size_t)size);
    r.cur += lsda_addr - sec_addr;
    uint64_t lpstart = func_start, u, ttype_off;
    uint8_t lpstart_enc = 0, ttype_enc = 0, cs_enc = 0;
    if (read_uint(&r, 1, &u) != 0)
        goto bad;
    lpstart_enc = (uint8_t)u;
    if (lpstart_enc != DW_EH_PE_omit && read_eh_pointer(&r, lpstart_enc, sec_addr, 8, &lpstart) != 0)
        goto bad;
    if (read_uint(&r, 1, &u) != 0)
        goto bad;
    ttype_enc = (uint8_t)u;
    if (ttype_enc != DW_EH_PE_omit && read_uleb128(&r, &ttype_off) != 0)
        goto bad;
    uint64_t table_len;
    if (read_uint(&r, 1, &u) != 0 || read_uleb128(&r, &table_len) != 0)
        goto bad;
    cs_enc = (uint8_t)u;
    if (table_len > byte_reader_left(&r)) {
        *error = "call-site table runs past the end of .gcc_except_table";
        return -1;
    }
    /* Call-site fields are offsets from lpstart: read them as absolute values. */
    uint8_t field_enc = cs_enc & 0x0f;
    const uint8_t *end = r.cur + table_len;
    while (r.cur < end) {
        uint64_t start, len, lp, action;
        if (read_eh_pointer(&r, field_enc, sec_addr, 8, &start) != 0 ||
            read_eh_pointer(&r, field_enc, sec_addr, 8, &len) != 0 ||
            read_eh_pointer(&r, field_enc, sec_addr, 8, &lp) != 0 ||
            read_uleb128(&r, &action) != 0)
            goto bad;
        struct lsda_call_site site = {lpstart + start, len, lp ? lpstart + lp : 0};
        if (on_site(arg, &site))
            return 0;
    }
    return 0;
bad:
    *error = r.error ? r.error : "malformed LSDA";
    return -1;
}

/* Calls the repaired big_bss library: its .bss is mapped and zero. */
int big_bss_read(int i);

int main(void)
{
    return big_bss_read(12345) == 1 ? 0 : 1;
}

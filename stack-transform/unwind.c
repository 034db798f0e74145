/* Walking a thread's stack with popcorn's migration metadata alone. */
#include "unwind.h"

#define EM_X86_64 62
#define EM_AARCH64 183

/* DWARF numbers of the stack pointer, frame pointer and return address. */
struct isa_registers {
	uint16_t sp, fp, ra;
};

static struct isa_registers registers_of(uint16_t machine)
{
	if (machine == EM_AARCH64)
		return (struct isa_registers){31, 29, 30};
	return (struct isa_registers){7, 6, 16};
}

static const void *at(const struct popcorn_metadata *m, uint32_t offset)
{
	return (const char *)m + offset;
}

const struct popcorn_isa_metadata *popcorn_isa_table(const struct popcorn_metadata *m,
                                                     uint16_t elf_machine)
{
	if (m->magic != POPCORN_METADATA_MAGIC || m->version != POPCORN_METADATA_VERSION)
		return 0;
	const struct popcorn_isa_metadata *isas = (const void *)(m + 1);
	for (uint16_t i = 0; i < m->n_isas; i++)
		if (isas[i].elf_machine == elf_machine)
			return &isas[i];
	return 0;
}

const struct popcorn_call_site *popcorn_find_site(const struct popcorn_metadata *m,
                                                  const struct popcorn_isa_metadata *isa,
                                                  uint64_t ra)
{
	const struct popcorn_call_site *sites = at(m, isa->sites);
	uint32_t lo = 0, hi = isa->n_sites;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (sites[mid].return_address < ra)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < isa->n_sites && sites[lo].return_address == ra ? &sites[lo] : 0;
}

int popcorn_is_thread_base(const struct popcorn_metadata *m,
                           const struct popcorn_isa_metadata *isa, uint64_t pc)
{
	const struct popcorn_code_range *bases = at(m, isa->bases);
	for (uint32_t i = 0; i < isa->n_bases; i++)
		if (pc > bases[i].start && pc <= bases[i].end)
			return 1;
	return 0;
}

int popcorn_unwind_step(const struct popcorn_metadata *m, const struct popcorn_isa_metadata *isa,
                        const struct popcorn_call_site *site, struct popcorn_frame *f)
{
	struct isa_registers r = registers_of(isa->elf_machine);
	uint64_t base;
	if (site->cfa_register == r.sp)
		base = f->sp;
	else if (site->cfa_register == r.fp)
		base = f->fp;
	else
		return -1;
	uint64_t cfa = base + (int64_t)site->cfa_offset;

	const struct popcorn_saved_register *saved = at(m, isa->saved);
	uint64_t ra = 0, fp = f->fp;
	int found_ra = 0;
	for (uint32_t i = site->first_saved; i < site->first_saved + site->n_saved; i++) {
		const uint64_t *slot = (const uint64_t *)(cfa + (int64_t)saved[i].cfa_offset);
		if (saved[i].dwarf_register == r.ra) {
			ra = *slot;
			found_ra = 1;
		} else if (saved[i].dwarf_register == r.fp) {
			fp = *slot;
		}
	}
	if (!found_ra)
		return -1;
	f->pc = ra;
	f->sp = cfa;
	f->fp = fp;
	return 0;
}

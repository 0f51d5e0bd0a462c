// ref_simdjson.cpp - the reference parse of `make bench`: simdjson's
// On-Demand API visiting the fields tracetty needs from every event.
//
//   ref-simdjson [--naive] FILE...
//
// For each FILE (a Chrome trace: an object with "traceEvents", or a bare
// array of events) it maps the whole file (simdjson needs SIMDJSON_PADDING
// readable bytes past the end, and On-Demand parses from memory: no
// streaming), then visits ts, dur, name, ph, cat, pid and tid of every
// element of the events array: numbers read as doubles or integers,
// strings unescaped, in whatever order the keys come. Other keys and the
// "args" objects are skipped (On-Demand still validates their structure as
// it skips them).
//
// So it measures: mapping the file + simdjson's stage 1 (the SIMD
// structural index of the whole document) + walking each event's keys and
// converting those seven values. It builds nothing: no interning, no lanes,
// no sort, no index. That is the floor a trace loader is compared to in
// bench/run.sh; its peak memory is the file plus the structural index.
//
// Memory, and why it is handled here: on a VM where a 4 KiB page's first
// touch costs ~21 us (the Firecracker guest the bench was written on) and
// THP is "madvise" only, fresh memory was most of the reference's time.
// It used to read the file into a padded copy (padded_string::load) on
// 4 KiB pages: with the structural index, 500 MB of fresh memory for the
// 261 MB 1M-event file, 128k minor faults, more system than user time, and
// the "floor" ran at 99 MB/s on one file but 722 MB/s over 64 small files
// that reuse the heap. Now
//   - the file is mapped, as tracetty maps it (decode/chrome_chunks.c):
//     page-cache pages, no copy; the padding past the end is an anonymous
//     page mapped behind the file's last one (zeros, readable);
//   - big blocks (operator new of 1 MiB and more: how simdjson allocates
//     its structural index) come on huge pages, aligned to 2 MiB and
//     advised MADV_HUGEPAGE, one fault per 2 MiB, as tracetty's large
//     arrays (src/util/bigalloc.c).
// What remains of the system time is the kernel zeroing the index's fresh
// pages. --naive keeps the old way (padded copy, 4 KiB pages): over many
// files of tens of MB it is the cheaper one (the copy reuses one heap
// block, while mapped files fault in every time), so bench/run.sh measures
// both and takes the faster as the reference.
//
//   ref-simdjson [--naive] FILE...
//
// Prints "events N checksum X" per file on stdout (the checksum keeps the
// compiler from dropping the work; it does not depend on the event order).
// Exit 0, or 2 with a message on stderr.
// Built by `make bench` only, when configure found a C++17 compiler and
// simdjson (libsimdjson-dev); never part of the normal build or CI.
#include <simdjson.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace simdjson;

// ----------------------------------------------------- large blocks
// The replaceable global operator new/delete of this program (simdjson's
// shared library calls them too: they are resolved in the executable).
// Every block comes from malloc() and goes back with free(), so the
// default aligned and sized forms, which also end in malloc/free, mix
// with these safely.
namespace {

constexpr size_t huge_page = size_t(2) << 20;
constexpr size_t huge_from = size_t(1) << 20;
bool naive = false;   // --naive: padded copy of the file, 4 KiB pages

void *block_alloc(size_t n) noexcept
{
    if (n == 0)
        n = 1;
    if (naive || n < huge_from)
        return std::malloc(n);
    void *p = nullptr;
    if (posix_memalign(&p, huge_page, n))
        return nullptr;
#ifdef MADV_HUGEPAGE
    // advice only: where THP is off the pages stay 4 KiB ones
    (void)madvise(p, (n + 4095) & ~size_t(4095), MADV_HUGEPAGE);
#endif
    return p;
}

void *block_alloc_or_throw(size_t n)
{
    void *p = block_alloc(n);
    if (!p)
        throw std::bad_alloc();
    return p;
}

}  // namespace

void *operator new(size_t n) { return block_alloc_or_throw(n); }
void *operator new[](size_t n) { return block_alloc_or_throw(n); }
void *operator new(size_t n, const std::nothrow_t &) noexcept { return block_alloc(n); }
void *operator new[](size_t n, const std::nothrow_t &) noexcept { return block_alloc(n); }
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, size_t) noexcept { std::free(p); }
void operator delete[](void *p, size_t) noexcept { std::free(p); }
void operator delete(void *p, const std::nothrow_t &) noexcept { std::free(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { std::free(p); }

namespace {

struct totals {
    uint64_t events = 0;
    uint64_t checksum = 0;
};

// Order-independent, so a shuffled file sums to its ordered twin's.
uint64_t fold(uint64_t h, uint64_t v)
{
    return h + v * 0x9e3779b97f4a7c15ULL;
}

// A number (ts, dur; pid and tid when numeric) or a string (name, ph, cat;
// pid and tid in string form): read whichever it is.
error_code visit_value(ondemand::value v, totals &t)
{
    ondemand::json_type type;
    auto err = v.type().get(type);
    if (err)
        return err;
    switch (type) {
    case ondemand::json_type::number: {
        double d;
        if ((err = v.get_double().get(d)))
            return err;
        t.checksum = fold(t.checksum, static_cast<uint64_t>(d));
        return SUCCESS;
    }
    case ondemand::json_type::string: {
        std::string_view s;
        if ((err = v.get_string().get(s)))
            return err;
        t.checksum = fold(t.checksum, s.size() + (s.empty() ? 0 : (unsigned char)s[0]));
        return SUCCESS;
    }
    default:
        return SUCCESS;   // null, bool, ...: nothing to convert
    }
}

error_code visit_events(ondemand::array events, totals &t)
{
    for (auto element : events) {
        ondemand::object ev;
        auto err = element.get_object().get(ev);
        if (err)
            return err;
        for (auto field : ev) {
            std::string_view key;
            if ((err = field.unescaped_key().get(key)))
                return err;
            if (key == "ts" || key == "dur" || key == "name" || key == "ph" || key == "cat" ||
                key == "pid" || key == "tid") {
                if ((err = visit_value(field.value(), t)))
                    return err;
            }
        }
        t.events++;
    }
    return SUCCESS;
}

// The file mapped read-only, followed by at least SIMDJSON_PADDING bytes of
// zeros: an anonymous reservation of the whole length, the file mapped over
// its start. Unmapped on destruction.
struct mapped_file {
    char *base = nullptr;
    size_t len = 0, span = 0;
    ~mapped_file()
    {
        if (base)
            munmap(base, span);
    }
};

error_code map_file(const char *path, mapped_file &m)
{
    struct stat st;
    size_t page = size_t(sysconf(_SC_PAGESIZE));
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return IO_ERROR;
    if (fstat(fd, &st) != 0 || st.st_size <= 0) {
        close(fd);
        return st.st_size == 0 ? EMPTY : IO_ERROR;
    }
    m.len = size_t(st.st_size);
    m.span = (m.len + SIMDJSON_PADDING + page - 1) / page * page;
    void *res = mmap(nullptr, m.span, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (res == MAP_FAILED) {
        close(fd);
        return MEMALLOC;
    }
    m.base = static_cast<char *>(res);
    void *f = mmap(m.base, m.len, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
    close(fd);
    if (f == MAP_FAILED)
        return IO_ERROR;
    (void)madvise(m.base, m.len, MADV_SEQUENTIAL);
    return SUCCESS;
}

error_code visit_file(ondemand::parser &parser, const char *path, totals &t)
{
    padded_string copy;   // --naive
    mapped_file map;
    padded_string_view json;
    error_code err;
    if (naive) {
        if ((err = padded_string::load(path).get(copy)))
            return err;
        json = copy;
    } else {
        if ((err = map_file(path, map)))
            return err;
        json = padded_string_view(map.base, map.len, map.span);
    }
    ondemand::document doc;
    if ((err = parser.iterate(json).get(doc)))
        return err;
    ondemand::json_type type;
    if ((err = doc.type().get(type)))
        return err;
    ondemand::array events;
    if (type == ondemand::json_type::array) {
        if ((err = doc.get_array().get(events)))
            return err;
    } else {
        if ((err = doc.find_field_unordered("traceEvents").get_array().get(events)))
            return err;
    }
    return visit_events(events, t);
}

}  // namespace

int main(int argc, char **argv)
{
    int first = 1;
    if (argc > 1 && std::strcmp(argv[1], "--naive") == 0) {
        naive = true;
        first = 2;
    }
    if (argc <= first) {
        std::fprintf(stderr, "usage: ref-simdjson [--naive] FILE...\n");
        return 2;
    }
    ondemand::parser parser;
    for (int i = first; i < argc; i++) {
        totals t;
        auto err = visit_file(parser, argv[i], t);
        if (err) {
            std::fprintf(stderr, "ref-simdjson: %s: %s\n", argv[i], error_message(err));
            return 2;
        }
        std::printf("events %llu checksum %016llx\n", (unsigned long long)t.events,
                    (unsigned long long)t.checksum);
    }
    return 0;
}

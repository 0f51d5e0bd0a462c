// ref_simdjson.cpp - the reference parse of `make bench`: simdjson's
// On-Demand API visiting the fields tracetty needs from every event.
//
//   ref-simdjson FILE...
//
// For each FILE (a Chrome trace: an object with "traceEvents", or a bare
// array of events) it loads the whole file into a padded buffer (simdjson
// needs SIMDJSON_PADDING readable bytes past the end, and On-Demand parses
// from memory: no streaming), then visits ts, dur, name, ph, cat, pid and
// tid of every element of the events array: numbers read as doubles or
// integers, strings unescaped, in whatever order the keys come. Other keys
// and the "args" objects are skipped (On-Demand still validates their
// structure as it skips them).
//
// So it measures: reading the file + simdjson's stage 1 (the SIMD
// structural index of the whole document) + walking each event's keys and
// converting those seven values. It builds nothing: no interning, no lanes,
// no sort, no index. That is the floor a trace loader is compared to in
// bench/run.sh; its peak memory is the file plus the structural index.
//
// Prints "events N checksum X" per file on stdout (the checksum keeps the
// compiler from dropping the work; it does not depend on the event order).
// Exit 0, or 2 with a message on stderr.
// Built by `make bench` only, when configure found a C++17 compiler and
// simdjson (libsimdjson-dev); never part of the normal build or CI.
#include <simdjson.h>

#include <cstdint>
#include <cstdio>
#include <string_view>

using namespace simdjson;

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

error_code visit_file(ondemand::parser &parser, const char *path, totals &t)
{
    padded_string json;
    auto err = padded_string::load(path).get(json);
    if (err)
        return err;
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
    if (argc < 2) {
        std::fprintf(stderr, "usage: ref-simdjson FILE...\n");
        return 2;
    }
    ondemand::parser parser;
    for (int i = 1; i < argc; i++) {
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

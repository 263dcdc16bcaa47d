// SPDX-License-Identifier: Apache-2.0
// The trace file's pieces without a device: JSON text, the clock mapping, device bars, the
// trace's layout. tests/e2e/test_trace.py checks real runs' files with Python's JSON parser.
#include "common/runtime/command_log.hpp"
#include "common/runtime/json_text.hpp"
#include "common/runtime/trace.hpp"

#include <gtest/gtest.h>

#include <string>

namespace sdk {
namespace {

TEST(JsonString, EscapesQuotesBackslashesAndControlCharacters)
{
    EXPECT_EQ(json_string(""), "\"\"");
    EXPECT_EQ(json_string("plain name.bmp"), "\"plain name.bmp\"");
    EXPECT_EQ(json_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
    EXPECT_EQ(json_string("\n\r\t"), "\"\\n\\r\\t\"");
    EXPECT_EQ(json_string(std::string("\0\x01\x1f", 3)), "\"\\u0000\\u0001\\u001f\"");
    EXPECT_EQ(json_string("\x7f/"), "\"\x7f/\"");  // DEL and '/' need no escape in JSON
}

TEST(JsonString, KeepsValidUtf8)
{
    const std::string text = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";  // é, €, an emoji
    EXPECT_EQ(json_string(text), "\"" + text + "\"");
}

TEST(JsonString, ReplacesEachInvalidByte)
{
    EXPECT_EQ(json_string("a\xff"
                          "b"),
              "\"a\\ufffdb\"");
    EXPECT_EQ(json_string("\x80"), "\"\\ufffd\"");                        // lone continuation
    EXPECT_EQ(json_string("\xc3"), "\"\\ufffd\"");                        // cut short
    EXPECT_EQ(json_string("\xc0\xaf"), "\"\\ufffd\\ufffd\"");             // overlong '/'
    EXPECT_EQ(json_string("\xe0\x80\xaf"), "\"\\ufffd\\ufffd\\ufffd\"");  // overlong
    EXPECT_EQ(json_string("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");  // a surrogate
    EXPECT_EQ(json_string("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");  // > U+10FFFF
    EXPECT_EQ(json_string("\xe2\x82"
                          "x"),
              "\"\\ufffd\\ufffdx\"");  // cut by an ASCII byte
}

TEST(JsonString, EverySingleByteBecomesPrintableAscii)
{
    for (int c = 0; c < 256; ++c) {
        const std::string out = json_string(std::string(1, static_cast<char>(c)));
        for (std::size_t i = 0; i < out.size(); ++i) {
            const auto byte = static_cast<unsigned char>(out[i]);
            EXPECT_TRUE(byte >= 0x20 && byte < 0x80) << "byte " << c;
        }
        if (c >= 0x80) {
            EXPECT_EQ(out, "\"\\ufffd\"") << "byte " << c;
        }
    }
}

TEST(JsonNumber, FixedDecimalsAndNoNonsense)
{
    EXPECT_EQ(json_number(1.5), "1.500");
    EXPECT_EQ(json_number(1234567.25), "1234567.250");
    EXPECT_EQ(json_number(-2.25, 2), "-2.25");
    EXPECT_EQ(json_number(-0.0001), "0.000");  // not "-0.000"
    EXPECT_EQ(json_number(0.0 / 0.0), "0.000");
    EXPECT_EQ(json_number(1.0 / 0.0), "0.000");
    EXPECT_EQ(json_number(1e300, 0).size(), 301u);  // every digit, never cut short
}

TEST(ClockMapping, MarkersIntersect)
{
    // Device clock = host clock - 1000 ns. Markers bracket [before, after] on the host.
    const std::vector<MarkerSample> markers{{5000, 4500, 5800},      // offset in [500, 1300]
                                            {9000, 8200, 9300},      // offset in [800, 1100]
                                            {20000, 18950, 20050}};  // offset in [1050, 1100]
    const ClockMapping clock = mapping_from_markers(markers);
    EXPECT_EQ(clock.offset_ns, 1075);
    EXPECT_EQ(clock.error_ns, 25);
    EXPECT_EQ(clock.to_host(4000), 5075);
    EXPECT_NE(clock.method.find("3 markers"), std::string::npos);
}

TEST(ClockMapping, MarkersThatDisagreeGiveTheirSpan)
{
    const std::vector<MarkerSample> markers{{1000, 0, 1100},
                                            {5000, 3000, 5100}};  // [1000, 1100], [2000, 2100]
    const ClockMapping clock = mapping_from_markers(markers);
    EXPECT_EQ(clock.offset_ns, 1550);
    EXPECT_EQ(clock.error_ns, 550);
    EXPECT_NE(clock.method.find("drifted"), std::string::npos);
}

TEST(ClockMapping, NoMarkersNoOffset)
{
    EXPECT_EQ(mapping_from_markers({}).offset_ns, 0);
    EXPECT_EQ(choose_clock_mapping(std::nullopt, {}).error_ns, 0);
}

TEST(ClockMapping, HostTimerUsedWhereMarkersAgree)
{
    const std::vector<MarkerSample> markers{{5000, 4000, 5200}};  // offset in [1000, 1200]
    // Device 100 is OpenCL host time 10000 (+9900); that timer reads 70000 at steady 61250
    // (read between 61240 and 61260: -8750), so steady = device + 1150.
    const HostTimerSample timer{100, 10000, 61240, 70000, 61260};
    const ClockMapping clock = choose_clock_mapping(timer, markers);
    EXPECT_EQ(clock.offset_ns, 1150);
    EXPECT_EQ(clock.error_ns, 150);  // the true offset is in [1000, 1200]: at most 150 away
    EXPECT_NE(clock.method.find("clGetDeviceAndHostTimer"), std::string::npos);
}

TEST(ClockMapping, HostTimerRefusedWhereMarkersDisagree)
{
    const std::vector<MarkerSample> markers{{5000, 4000, 5200}};   // offset in [1000, 1200]
    const HostTimerSample timer{100, 50000, 61030, 60000, 61050};  // says 50940
    const ClockMapping clock = choose_clock_mapping(timer, markers);
    EXPECT_EQ(clock.offset_ns, 1100);
    EXPECT_EQ(clock.error_ns, 100);
    EXPECT_NE(clock.method.find("disagreed by 49740 ns"), std::string::npos);
}

TEST(DeviceEvent, MappedToTheHostsClock)
{
    const ClockMapping clock{1000, 20, "test"};
    const auto event = device_event("sobel_16x1", "kernel", {4000, 4500, 5000, 7000}, clock, 2000);
    ASSERT_TRUE(event);
    EXPECT_EQ(event->start_ns, 4000);  // 5000 + 1000 - 2000
    EXPECT_EQ(event->end_ns, 6000);
    EXPECT_NE(event->args_json.find("\"queued_us_before_start\": 1.000"), std::string::npos);
    EXPECT_NE(event->args_json.find("\"submitted_us_before_start\": 0.500"), std::string::npos);
}

TEST(DeviceEvent, UnusableStartBecomesABarOfNoLength)
{
    // NVIDIA's blocking maps: a start of 0, or after the end.
    const ClockMapping clock{0, 0, "test"};
    for (const std::uint64_t start : {std::uint64_t{0}, std::uint64_t{9000}}) {
        const auto event = device_event("map", "map buffer", {100, 200, start, 7000}, clock, 0);
        ASSERT_TRUE(event);
        EXPECT_EQ(event->start_ns, 7000);
        EXPECT_EQ(event->end_ns, 7000);
        EXPECT_NE(event->args_json.find("not reported"), std::string::npos);
        EXPECT_EQ(event->args_json.find("queued_us"), std::string::npos)
            << "no start to be queued before";
    }
    EXPECT_FALSE(device_event("map", "map buffer", {1, 2, 3, 0}, clock, 0));  // no end: no bar
}

TEST(ChromeTrace, LayoutOfTracksAndEvents)
{
    const std::vector<TraceTrack> tracks{
        {"host", "", {{"read \"a\".bmp", "host", 1500, 2500, "{\"bytes\": 3}"}}},
        {"device queue", "{\"clock\": 1}", {{"k", "device", 3000, 2000, ""}}}};
    const std::string json = chrome_trace_json("run", tracks, "{\"x\": 1}");
    EXPECT_EQ(json.rfind("{\"traceEvents\": [", 0), 0u);
    EXPECT_NE(json.find("\"displayTimeUnit\": \"ms\""), std::string::npos);
    EXPECT_NE(json.find("\"otherData\": {\"x\": 1}"), std::string::npos);
    EXPECT_NE(json.find("\"name\": \"process_name\", \"args\": {\"name\": \"run\"}"),
              std::string::npos);
    EXPECT_NE(json.find("\"tid\": 2, \"name\": \"thread_name\", \"args\": {\"name\": \"device "
                        "queue\", \"track\": {\"clock\": 1}}"),
              std::string::npos);
    EXPECT_NE(
        json.find("{\"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"name\": \"read \\\"a\\\".bmp\", "
                  "\"cat\": \"host\", \"ts\": 1.500, \"dur\": 1.000, \"args\": {\"bytes\": 3}}"),
        std::string::npos);
    // An end before the start is written as no length, not a negative one.
    EXPECT_NE(json.find("\"ts\": 3.000, \"dur\": 0.000, \"args\": {}"), std::string::npos);
    EXPECT_EQ(json.find("\"dur\": -"), std::string::npos);
}

TEST(ChromeTrace, HostTrackHasThePipelineSteps)
{
    PipelineTimer pipeline;
    const auto origin = pipeline.origin();
    pipeline.add("open", 0, origin + std::chrono::microseconds(5),
                 origin + std::chrono::microseconds(9));
    pipeline.add("kernel sobel", 10, origin + std::chrono::microseconds(9),
                 origin + std::chrono::microseconds(19));
    const TraceTrack track = host_track(pipeline);
    ASSERT_EQ(track.events.size(), 2u);
    EXPECT_EQ(track.events[1].name, "kernel sobel");
    EXPECT_EQ(track.events[1].start_ns, 9000);
    EXPECT_EQ(track.events[1].end_ns, 19000);
    EXPECT_EQ(pipeline.step_ms("kernel sobel"), 0.01);
}

}  // namespace
}  // namespace sdk

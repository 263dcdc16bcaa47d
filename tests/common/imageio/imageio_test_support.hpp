// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the image I/O tests share: a private folder per test, image comparison, and for every
// in-memory decoder (decode_bmp, decode_png, decode_jpeg) decoding from exactly the file's bytes
// and refusals that are one line naming the file.

#include "common/imageio/image.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace decodetest {

// Each test works in a fresh private folder, removed afterwards.
class FolderTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        char folder_template[] = "/tmp/sdk-imageio-test-XXXXXX";
        ASSERT_NE(mkdtemp(folder_template), nullptr);
        folder_ = folder_template;
    }
    void TearDown() override { std::filesystem::remove_all(folder_); }

    std::filesystem::path folder_;
};

inline void expect_same_image(const sdk::Image& actual, const sdk::Image& expected)
{
    EXPECT_EQ(actual.width, expected.width);
    EXPECT_EQ(actual.height, expected.height);
    EXPECT_EQ(actual.channels, expected.channels);
    EXPECT_EQ(actual.pixels, expected.pixels);
}

using DecodeFunction = sdk::Image (*)(const std::uint8_t*, std::size_t, const std::string&);

struct Decoder {
    DecodeFunction decode_function;
    std::string name;  // the file name every message must start with

    // Decodes from an allocation of exactly `bytes.size()` bytes, so that AddressSanitizer
    // reports any read past the end (a std::vector may have spare capacity behind its last
    // element).
    sdk::Image decode(const std::vector<std::uint8_t>& bytes) const
    {
        std::unique_ptr<std::uint8_t[]> exact(new std::uint8_t[bytes.size()]);
        std::copy(bytes.begin(), bytes.end(), exact.get());
        return decode_function(exact.get(), bytes.size(), name);
    }

    // The ImageError's message, or "<accepted>".
    std::string rejection(const std::vector<std::uint8_t>& bytes) const
    {
        try {
            decode(bytes);
        } catch (const sdk::ImageError& error) {
            return error.what();
        }
        return "<accepted>";
    }

    void expect_rejected(const std::vector<std::uint8_t>& bytes, const std::string& phrase) const
    {
        const std::string message = rejection(bytes);
        EXPECT_NE(message.find(phrase), std::string::npos) << "message: " << message;
        EXPECT_EQ(message.rfind(name + ": ", 0), 0u) << "message must name the file: " << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << "message must be one line: " << message;
    }
};

}  // namespace decodetest

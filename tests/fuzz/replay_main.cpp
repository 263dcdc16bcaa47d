// SPDX-License-Identifier: Apache-2.0
// Replays saved inputs through the fuzz target without libFuzzer, so that every crash found once
// (tests/fuzz/regressions/) is rerun by the ordinary test suite with any compiler.
// Usage: fuzz_image_replay FOLDER_OR_FILE...; exit 0 when every input passes, 2 on a usage error.
// A failing input aborts the process (as under libFuzzer); the line printed before names it.
#include "common/imageio/file_io.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

// Every regular file under `path` (or `path` itself), sorted so runs are reproducible.
std::vector<std::filesystem::path> inputs_in(const std::filesystem::path& path)
{
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_regular_file(path)) {
        files.push_back(path);
        return files;
    }
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
        if (entry.is_regular_file()) {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

void replay(const std::filesystem::path& file)
{
    std::cout << "replaying " << file.string() << std::endl;  // flushed: the next step may abort
    const std::vector<std::uint8_t> bytes = sdk::read_file(file);
    // An allocation of exactly the file's size, as libFuzzer gives, so that AddressSanitizer
    // (when enabled) catches a read one byte past the end.
    std::unique_ptr<std::uint8_t[]> exact(new std::uint8_t[bytes.size()]);
    std::copy(bytes.begin(), bytes.end(), exact.get());
    LLVMFuzzerTestOneInput(exact.get(), bytes.size());
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::cerr << "usage: fuzz_image_replay FOLDER_OR_FILE...\n";
        return 2;
    }
    std::size_t count = 0;
    try {
        for (int i = 1; i < argc; ++i) {
            const std::filesystem::path path = argv[i];
            if (!std::filesystem::exists(path)) {
                // A misspelt folder must not pass as "nothing to replay".
                std::cerr << "fuzz_image_replay: '" << path.string() << "' does not exist\n";
                return 2;
            }
            for (const auto& file : inputs_in(path)) {
                replay(file);
                ++count;
            }
        }
    } catch (const std::exception& error) {
        std::cerr << "fuzz_image_replay: " << error.what() << "\n";
        return 1;
    }
    std::cout << "fuzz_image_replay: " << count << " inputs passed\n";
    return 0;
}

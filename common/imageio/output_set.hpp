// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

namespace sdk {

struct ReservedOutput;  // file_io.hpp

// Every file one run writes, as one all-or-nothing set: all of them replaced together when the
// run succeeds, none of them touched when it fails, runs out of disk or is stopped by a signal.
//
// Made before any work, it checks each output against the inputs and the other outputs, refuses
// outputs that exist and are not regular files (a device, a FIFO, a folder: writing there would
// replace the node itself), and creates a temporary for each in the output's own folder, so a
// read-only or missing folder fails now rather than after the computation. While it lives, an
// AtomicFile opened on one of its paths writes that temporary. commit() renames all of them into
// place under a lock on their folders (two runs writing the same outputs at once: the whole set
// of the one that commits last wins, never a mix), with stopping signals held back; if a rename
// fails half-way, the files already replaced get their previous versions back. Destroyed without
// commit(), it removes its temporaries (and folders it created) and leaves every previous file
// as it was. A symbolic link as an output is followed: the file it names is replaced.
//
// The files are closed and their write errors checked before the renames, not fsync'ed: the
// promise is about this process's failures and signals, not power loss.
class OutputSet {
public:
    // `create_folders`: folders to make if missing (e.g. --save-raw's); any other output's
    // folder must exist.
    OutputSet(const std::vector<std::filesystem::path>& inputs,
              const std::vector<std::filesystem::path>& outputs,
              const std::vector<std::filesystem::path>& create_folders = {});
    ~OutputSet();
    OutputSet(const OutputSet&) = delete;
    OutputSet& operator=(const OutputSet&) = delete;

    // Throws FileError (naming the file and why) when an output was not written or cannot be
    // put in place; the previous files are then as they were.
    void commit();

    // The reservation for `path` in a live set, if any (AtomicFile's hook). A batch has one set
    // per photo in flight (samples/app/batch.hpp), alive side by side on their threads.
    static ReservedOutput* reserved_for(const std::filesystem::path& path);

private:
    void discard() noexcept;

    std::vector<std::unique_ptr<ReservedOutput>> files_;
    std::vector<std::filesystem::path> created_folders_;
};

}  // namespace sdk

// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/deflate_parallel.hpp"

#include "common/imageio/cores.hpp"

#include <zlib.h>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <iterator>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace sdk {
namespace {

// zlib's fastest level, and a strategy chosen for each chunk by what it holds. On filtered
// photographs and edge maps the filtered bytes rarely repeat at longer distances, so the match
// search of the default strategy costs time and, at level 1, even some ratio: Huffman coding
// alone (no matches) is the fastest and as small. Runs (flat regions, masks) need matches to
// shrink, which the run-length strategy finds at distance 1 only. docs/whole_run.md has the
// measured comparison. Matches never reach back further than one byte, so a chunk loses nothing
// by starting without the previous chunk's bytes as dictionary.
constexpr int kLevel = 1;

// Run-length when at least half of the chunk's bytes repeat the byte before them, else Huffman
// only: Huffman alone is faster and as small where few bytes repeat, run-length far smaller
// where most do (a morphology mask); measured in docs/history.md. The count is one pass the
// compiler vectorises.
int strategy_for(const std::vector<std::uint8_t>& chunk)
{
    std::size_t repeats = 0;
    for (std::size_t i = 1; i < chunk.size(); ++i) repeats += chunk[i] == chunk[i - 1];
    return 2 * repeats >= chunk.size() ? Z_RLE : Z_HUFFMAN_ONLY;
}

// The 2-byte zlib header: deflate with a 32 KiB window (0x78), the "fastest" level flag, and
// the check bits that make the pair a multiple of 31.
constexpr std::uint8_t kZlibHeader[2] = {0x78, 0x01};

// Chunk sizes. Inputs under kOneChunkBelow are compressed in one piece on the calling thread:
// they take a few milliseconds, less than starting threads is worth. Otherwise each core gets at
// least four chunks, so that a slow core or a short last chunk leaves the others little idle
// time, and a chunk holds at most kLargestChunk input bytes: with at most two chunks per worker
// in flight (the writer frees them in order), memory stays under about
// 2 x threads x (kLargestChunk + its compressed bytes), whatever the image's size. No chunk is
// smaller than kSmallestChunk, where the per-chunk cost (a Huffman table and a sync flush, a few
// hundred bytes; a thread hand-over) would start to show.
constexpr std::size_t kOneChunkBelow = std::size_t{1} << 20;
constexpr std::size_t kSmallestChunk = std::size_t{256} << 10;
constexpr std::size_t kLargestChunk = std::size_t{1} << 20;
constexpr std::size_t kChunksPerCore = 4;
constexpr std::size_t kChunksInFlightPerWorker = 2;

std::size_t rows_per_chunk(const DeflateRows& rows, const DeflateChunking& chunking,
                           unsigned threads)
{
    const std::size_t total = rows.row_count * rows.row_bytes;
    std::size_t bytes = chunking.chunk_bytes;
    if (bytes == 0) {
        if (total < kOneChunkBelow) return rows.row_count;
        bytes = std::clamp(total / (kChunksPerCore * threads), kSmallestChunk, kLargestChunk);
    }
    return std::max<std::size_t>(1, (bytes + rows.row_bytes - 1) / rows.row_bytes);
}

// One raw deflate stream (no zlib header or trailer) reused chunk after chunk.
class Deflater {
public:
    Deflater()
    {
        const int status = deflateInit2(&stream_, kLevel, Z_DEFLATED, -15, 8, Z_RLE);
        if (status == Z_MEM_ERROR) throw std::bad_alloc();
        if (status != Z_OK) throw std::runtime_error("deflate: zlib refused its settings");
    }
    ~Deflater() { deflateEnd(&stream_); }
    Deflater(const Deflater&) = delete;
    Deflater& operator=(const Deflater&) = delete;

    // Appends the compressed bytes of `input` to `out`: ended by a sync flush (an empty stored
    // block, on a byte boundary, with no final-block bit) so the next chunk's blocks can follow,
    // or for the last chunk by the final block.
    void compress(const std::vector<std::uint8_t>& input, bool last, std::vector<std::uint8_t>& out)
    {
        deflateReset(&stream_);
        // Before any input, so nothing is flushed in the old strategy.
        if (deflateParams(&stream_, kLevel, strategy_for(input)) != Z_OK)
            throw std::runtime_error("deflate: zlib refused its settings");
        stream_.next_in = const_cast<Bytef*>(input.data());  // zlib's API is not const-correct
        stream_.avail_in = static_cast<uInt>(input.size());
        std::size_t used = out.size();
        out.resize(used + deflateBound(&stream_, input.size()) + 16);  // + the sync flush's 5 bytes
        const int flush = last ? Z_FINISH : Z_SYNC_FLUSH;
        for (;;) {
            if (used == out.size()) out.resize(out.size() * 2);
            stream_.next_out = out.data() + used;
            stream_.avail_out = static_cast<uInt>(out.size() - used);
            const int status = deflate(&stream_, flush);
            used = out.size() - stream_.avail_out;
            if (status == Z_STREAM_ERROR) throw std::runtime_error("deflate: zlib stream error");
            if (last ? status == Z_STREAM_END : stream_.avail_out != 0) break;
        }
        out.resize(used);
    }

private:
    z_stream stream_{};
};

// A compressed chunk waiting for the writer.
struct Slot {
    std::size_t chunk = 0;
    bool ready = false;
    std::vector<std::uint8_t> compressed;  // with the zlib header in front for chunk 0
    uLong adler = 0;                       // of the chunk's uncompressed bytes
    std::size_t input_bytes = 0;
    std::exception_ptr error;
};

class ParallelDeflate {
public:
    ParallelDeflate(const DeflateRows& rows, std::size_t chunk_rows, unsigned threads)
        : rows_(rows),
          chunk_rows_(chunk_rows),
          chunk_count_((rows.row_count + chunk_rows - 1) / chunk_rows),
          slots_(std::min<std::size_t>(chunk_count_, kChunksInFlightPerWorker * threads))
    {
        threads = static_cast<unsigned>(std::min<std::size_t>(threads, chunk_count_));
        try {
            for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
        } catch (...) {
            stop_and_join();
            throw;
        }
    }
    ~ParallelDeflate() { stop_and_join(); }
    ParallelDeflate(const ParallelDeflate&) = delete;
    ParallelDeflate& operator=(const ParallelDeflate&) = delete;

    // Writes the chunks in order on this thread, each as soon as it is ready.
    void write_all(const StreamWriter& write)
    {
        uLong adler = adler32(0, nullptr, 0);
        std::vector<std::uint8_t> compressed;
        for (std::size_t chunk = 0; chunk < chunk_count_; ++chunk) {
            std::unique_lock<std::mutex> lock(mutex_);
            Slot& slot = slots_[chunk % slots_.size()];
            changed_.wait(lock, [&] { return slot.ready && slot.chunk == chunk; });
            if (slot.error) std::rethrow_exception(slot.error);
            compressed.swap(slot.compressed);  // the slot keeps the older buffer to reuse
            adler = adler32_combine(adler, slot.adler, static_cast<z_off_t>(slot.input_bytes));
            lock.unlock();
            if (chunk + 1 == chunk_count_) append_trailer(compressed, adler);
            write(compressed.data(), compressed.size());
            lock.lock();
            slot.ready = false;
            ++written_;
            changed_.notify_all();
        }
    }

    // The whole stream on the calling thread, in one chunk.
    static void write_one_chunk(const DeflateRows& rows, const StreamWriter& write)
    {
        std::vector<std::uint8_t> compressed(std::begin(kZlibHeader), std::end(kZlibHeader));
        if (rows.compress_rows) {
            const uLong adler = rows.compress_rows(0, rows.row_count, true, compressed);
            append_trailer(compressed, adler);
            write(compressed.data(), compressed.size());
            return;
        }
        std::vector<std::uint8_t> input(rows.row_count * rows.row_bytes);
        rows.make_rows(0, rows.row_count, input.data());
        Deflater().compress(input, true, compressed);
        append_trailer(compressed, adler32_z(adler32(0, nullptr, 0), input.data(), input.size()));
        write(compressed.data(), compressed.size());
    }

private:
    static void append_trailer(std::vector<std::uint8_t>& compressed, uLong adler)
    {
        for (int shift = 24; shift >= 0; shift -= 8)  // big-endian, as RFC 1950 says
            compressed.push_back(static_cast<std::uint8_t>(adler >> shift));
    }

    void work()
    {
        std::vector<std::uint8_t> input;
        std::vector<std::uint8_t> compressed;
        std::unique_ptr<Deflater> deflater;
        for (;;) {
            std::size_t chunk = 0;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                // A chunk's slot is free once the writer has taken the chunk a ring before it.
                changed_.wait(lock, [&] {
                    return stopping_ || next_chunk_ >= chunk_count_ ||
                           next_chunk_ < written_ + slots_.size();
                });
                if (stopping_ || next_chunk_ >= chunk_count_) return;
                chunk = next_chunk_++;
            }
            uLong adler = 0;
            std::size_t input_bytes = 0;
            std::exception_ptr error;
            try {
                const std::size_t first_row = chunk * chunk_rows_;
                const std::size_t count = std::min(chunk_rows_, rows_.row_count - first_row);
                compressed.clear();
                if (chunk == 0) compressed.assign(std::begin(kZlibHeader), std::end(kZlibHeader));
                const bool last = chunk + 1 == chunk_count_;
                input_bytes = count * rows_.row_bytes;
                if (rows_.compress_rows) {
                    adler = rows_.compress_rows(first_row, count, last, compressed);
                } else {
                    input.resize(input_bytes);
                    rows_.make_rows(first_row, count, input.data());
                    adler = adler32_z(adler32(0, nullptr, 0), input.data(), input.size());
                    if (!deflater) deflater = std::make_unique<Deflater>();
                    deflater->compress(input, last, compressed);
                }
            } catch (...) {
                error = std::current_exception();
            }
            std::lock_guard<std::mutex> lock(mutex_);
            Slot& slot = slots_[chunk % slots_.size()];
            slot.chunk = chunk;
            slot.compressed.swap(compressed);
            slot.adler = adler;
            slot.input_bytes = input_bytes;
            slot.error = error;
            slot.ready = true;
            changed_.notify_all();
            if (error) return;  // the writer rethrows it when it reaches this chunk
        }
    }

    void stop_and_join()
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        changed_.notify_all();
        for (std::thread& worker : workers_) worker.join();
        workers_.clear();
    }

    const DeflateRows& rows_;
    const std::size_t chunk_rows_;
    const std::size_t chunk_count_;
    std::mutex mutex_;
    std::condition_variable changed_;  // a slot filled or emptied, or stopping
    std::vector<Slot> slots_;          // chunk i in slots_[i % size]
    std::size_t next_chunk_ = 0;       // the next chunk a worker takes
    std::size_t written_ = 0;          // chunks the writer has written
    bool stopping_ = false;
    std::vector<std::thread> workers_;
};

}  // namespace

void deflate_rows(const DeflateRows& rows, const StreamWriter& write,
                  const DeflateChunking& chunking)
{
    if (rows.row_count == 0 || rows.row_bytes == 0)
        throw std::invalid_argument("deflate_rows: no rows to compress");
    const unsigned threads = chunking.threads != 0 ? chunking.threads : threads_per_image();
    const std::size_t chunk_rows = rows_per_chunk(rows, chunking, threads);
    if (chunk_rows >= rows.row_count) {
        ParallelDeflate::write_one_chunk(rows, write);
        return;
    }
    ParallelDeflate(rows, chunk_rows, threads).write_all(write);
}

}  // namespace sdk

#include "indexer/indexer.h"

#include <sys/stat.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <chrono>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "core/input/broadcast_http.h"
#include "core/input/mapped_file.h"
#include "core/input/replay_input.h"
#include "core/match/games.h"
#include "core/parser/parser.h"
#include "indexer/file_paths.h"
#include "indexer/output_file.h"
#include "indexer/progress.h"
#include "indexer/sha256.h"
#include "indexer/sqlite_db.h"
#include "indexer/thread_cpu.h"

namespace gem::index {
namespace {

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

// Not file-local: stores to it cannot be optimized away, and what it
// points to stays reachable (no leak for LeakSanitizer).
KeptUntilExit g_kept_until_exit;

Status IndexReplay(const std::string& replay, const std::string& out,
                   const IndexOptions& options, IndexReport* report) {
  return IndexReplay(std::vector<std::string>{replay}, out, options, report);
}

namespace {

// One input file and its checksums.
struct Input {
  std::string path;
  // A streamed input (compressed, or a pipe) is checksummed on its
  // reading thread as it goes: the file as given and the replay inside.
  // The hashes are made there on first use: OpenSSL's set-up (a
  // millisecond and more) then stays off the parsing thread, and a
  // mapped file needs neither.
  std::optional<Sha256Stream> input_sha, replay_sha;
  uint64_t replay_bytes = 0;
  SourceInfo source;
  Status sha_status;
  // Declared after what its hooks write, so destroyed (its reading thread
  // stopped) before them: a parse that fails early leaves the thread
  // still decoding, and its hooks must not reach freed hashes.
  ReplayInput input;

  Status Open(const Follow& follow) {
    ReplayInputHooks hooks;
    hooks.input_bytes = [this](const uint8_t* d, size_t n) {
      if (!input_sha) input_sha.emplace();
      input_sha->Update(d, n);
    };
    hooks.replay_bytes = [this](const uint8_t* d, size_t n) {
      if (!replay_sha) replay_sha.emplace();
      replay_sha->Update(d, n);
      replay_bytes += n;
    };
    GEM_RETURN_IF_ERROR(input.Open(path, std::move(hooks), nullptr, follow));
    // A broadcast's directory may be given with a trailing slash.
    std::string trimmed = path;
    while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
    source.name = path == "-" || IsBroadcastUrl(path) ? path : BaseName(trimmed);
    source.compression = CompressionName(input.compression());
    return Status::Ok();
  }
  // A mapped file's checksum, beside the parse (the machine has a second
  // core), reading the file again rather than through the mapping: the
  // mapping's pages would all stay resident ahead of the parse.
  void ChecksumMapped() {
    MappedFile& file = input.file();
    Status s = Status::IoError("not mapped");
    if (file.is_mapped()) s = Sha256HexOfFile(path, &source.sha256);
    if (!s.ok()) s = Sha256Hex(file.data(), file.size(), &source.sha256);
    sha_status = s;
  }
  // Once the parse has read it to its end.
  Status FinishSource() {
    if (input.mapped()) {
      GEM_RETURN_IF_ERROR(sha_status);
      source.bytes = input.file().size();
      source.replay_sha256 = source.sha256;
      source.replay_bytes = source.bytes;
      return Status::Ok();
    }
    // The reading thread is done with both checksums.
    input.WaitForReader();
    source.bytes = input.input_bytes();
    source.replay_bytes = replay_bytes;
    // (No bytes at all: the empty input's digest.)
    if (!input_sha) input_sha.emplace();
    if (!replay_sha) replay_sha.emplace();
    GEM_RETURN_IF_ERROR(input_sha->Finish(&source.sha256));
    return replay_sha->Finish(&source.replay_sha256);
  }
};

}  // namespace

Status IndexReplay(const std::vector<std::string>& replays, const std::string& out,
                   const IndexOptions& options, IndexReport* report) {
  const auto start = std::chrono::steady_clock::now();
  if (replays.empty()) return Status::InvalidArgument("no replay to index");
  const bool split = replays.size() > 1;
  if (split && (options.follow || options.commit_seconds > 0)) {
    return Status::InvalidArgument(
        "the parts of a split recording are read as finished files: not followed, not live");
  }
  std::vector<std::unique_ptr<Input>> inputs;
  Follow follow;
  follow.follow = options.follow;
  follow.idle_seconds = options.idle_seconds;
  for (const std::string& path : replays) {
    if (split && (path == "-" || IsBroadcastUrl(path))) {
      return Status::InvalidArgument("a part of a split recording is a file: not " + path);
    }
    inputs.push_back(std::make_unique<Input>());
    inputs.back()->path = path;
    Status opened = inputs.back()->Open(follow);
    if (!opened.ok()) return split ? opened.WithContext(path) : opened;
  }
  ReplayInput& input = inputs.front()->input;
  OutputFile output;
  GEM_RETURN_IF_ERROR(output.Prepare(out, options.force));

  bool any_mapped = false;
  for (auto& in : inputs) any_mapped |= in->input.mapped();
  std::thread sha;
  if (any_mapped) {
    sha = std::thread([&] {
      for (auto& in : inputs) {
        if (in->input.mapped()) in->ChecksumMapped();
      }
      report->sha_cpu_seconds = ThreadCpuSeconds();
    });
  }
  struct Joiner {
    std::thread* t;
    ~Joiner() {
      if (t->joinable()) t->join();
    }
  } joiner{&sha};

  // The timeline's columns depend on the game, which the header names; a
  // header that does not read fails the parse below, with its reason.
  ReplayHeader header;
  std::string game;
  if (!Parser::ReadHeader(input.source(), &header, &game).ok()) game.clear();

  // A plain run writes the temporary file, renamed onto `out` when whole;
  // a live run (live_index.h) writes `out` itself, readable as it goes.
  const bool live = options.commit_seconds > 0;
  const LiveOptions live_options{out, options.commit_seconds};
  Db db;
  if (live) {
    GEM_RETURN_IF_ERROR(output.PrepareLive());
  } else {
    GEM_RETURN_IF_ERROR(db.Open(output.temp_path()));
  }
  // A stream's size is not known ahead: its progress shows no share.
  uint64_t total_bytes = 0;
  for (auto& in : inputs) {
    total_bytes = in->input.mapped() && total_bytes != UINT64_MAX
                      ? total_bytes + in->input.file().size()
                      : UINT64_MAX;
  }
  Progress progress(total_bytes == UINT64_MAX ? 0 : total_bytes, options.progress);
  auto owned_writer = std::make_unique<IndexWriter>(&db, &progress);
  IndexWriter& writer = *owned_writer;
  writer.SetKeyframes(options.keyframe_seconds, options.keyframe_max_logged);
  GEM_RETURN_IF_ERROR(writer.Open(match::TimelineColumnsFor(game), match::SchemaFor(game),
                                  live ? &live_options : nullptr));

  ParserOptions parser_options;
  parser_options.match_layer = options.match_layer;
  parser_options.game_tables = options.game_tables;
  parser_options.timeline_step = options.timeline_step;
  if (options.follow) parser_options.stopped = [&input] { input.StopFollowing(); };
  auto owned_parser = std::make_unique<Parser>(&writer, parser_options);
  Parser& parser = *owned_parser;
  writer.SetParser(&parser);
  if (live) input.SetWaiting([&parser] { parser.InputWaiting(); });
  // The parse reads each mapping once, front to back: pages behind it go
  // (the checksum reads the file on its own, not through the mapping).
  std::vector<ReplayPart> parts;
  for (auto& in : inputs) {
    ReplayPart part;
    part.name = in->source.name;
    part.source = in->input.source();
    if (in->input.mapped()) {
      ReplayInput* each = &in->input;
      part.consumed = [each](uint64_t at) { each->file().DropBefore(at); };
    }
    parts.push_back(std::move(part));
  }
  // A live run that fails keeps its live index as the last commit left it
  // (IndexWriter::AbandonLive; a no-op once finished).
  struct LiveKeeper {
    IndexWriter* writer;
    ~LiveKeeper() { writer->AbandonLive(Status::IoError("the index could not be finished")); }
  } live_keeper{&writer};
  const auto parse_start = std::chrono::steady_clock::now();
  const double parse_cpu_start = ThreadCpuSeconds();
  Status s = parser.ParseParts(parts);
  report->parse_seconds = Since(parse_start);
  report->parse_cpu_seconds = ThreadCpuSeconds() - parse_cpu_start;
  progress.Finish();
  if (!s.ok()) {
    // The writer's own failure (disk full) outranks what it did to the parse.
    Status health = writer.Health();
    // Damaged compressed data may read as a bad replay before the
    // decompressor's checksum says so: that is the cause to report.
    Status failure = health;
    if (health.ok()) {
      failure = s;
      for (auto& in : inputs) {
        Status cause = in->input.FailureOf(s);
        if (cause.code() != s.code() || cause.ToString() != s.ToString()) failure = cause;
      }
    }
    writer.AbandonLive(failure);
    return failure;
  }
  if (sha.joinable()) sha.join();
  for (auto& in : inputs) GEM_RETURN_IF_ERROR(in->FinishSource());
  SourceInfo source = inputs.front()->source;
  if (split) {
    for (auto& in : inputs) {
      source.parts.push_back({in->source.name, in->source.sha256, in->source.bytes});
    }
  }
  // A long match's finish holds its biggest entities' chunks at once (a
  // hero's 1.6 MB at 72 minutes, several read ahead) while the parse's
  // entity states, not needed again, still held their 12-15 MB: the finish,
  // not the parse, set the peak, and it grew with the match (a 72-minute
  // Deadlock match: 93.8 MB against the parse's 90.4). The states go and
  // their pages return to the system (malloc_trim: the sealing thread
  // allocates from an arena of its own, which this thread's freed memory
  // would not serve). It costs 4-6 ms, so only replays long enough for the
  // finish to pass the parse's peak pay it.
  if (source.replay_bytes >= options.release_states_from) {
    parser.ReleaseEntityStates();
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
  }
  // The bulk of the file goes to disk while the smaller tables are written.
  GEM_RETURN_IF_ERROR(writer.Finish(parser, source, [&output, live] {
    if (!live) output.StartWriteback();
  }));
  GEM_RETURN_IF_ERROR(db.Close());
  if (live) {
    // The live index is the finished index now; the temporary file was
    // never written.
    output.Abandon();
  } else {
    GEM_RETURN_IF_ERROR(output.Commit());
  }

  report->meta = parser.metadata();
  report->stats = writer.stats();
  struct stat st;
  if (stat(out.c_str(), &st) == 0) report->db_bytes = static_cast<uint64_t>(st.st_size);
  if (options.exit_after) {
    g_kept_until_exit.parser = owned_parser.release();
    g_kept_until_exit.writer = owned_writer.release();
  }
  report->seconds = Since(start);
  report->cpu_seconds = ProcessCpuSeconds();
  return Status::Ok();
}

}  // namespace gem::index

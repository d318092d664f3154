#include "indexer/indexer.h"

#include <sys/stat.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <chrono>
#include <memory>
#include <optional>
#include <thread>

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
  const auto start = std::chrono::steady_clock::now();
  // A streamed input (compressed, or a pipe) is checksummed on its
  // reading thread as it goes: the file as given and the replay inside.
  // The hashes are made there on first use: OpenSSL's set-up (a
  // millisecond and more) then stays off this thread, which parses next,
  // and a mapped file needs neither.
  std::optional<Sha256Stream> input_sha, replay_sha;
  ReplayInputHooks hooks;
  hooks.input_bytes = [&input_sha](const uint8_t* d, size_t n) {
    if (!input_sha) input_sha.emplace();
    input_sha->Update(d, n);
  };
  uint64_t replay_bytes = 0;
  hooks.replay_bytes = [&replay_sha, &replay_bytes](const uint8_t* d, size_t n) {
    if (!replay_sha) replay_sha.emplace();
    replay_sha->Update(d, n);
    replay_bytes += n;
  };
  ReplayInput input;
  Follow follow;
  follow.follow = options.follow;
  follow.idle_seconds = options.idle_seconds;
  GEM_RETURN_IF_ERROR(input.Open(replay, std::move(hooks), nullptr, follow));
  OutputFile output;
  GEM_RETURN_IF_ERROR(output.Prepare(out, options.force));

  SourceInfo source;
  // A broadcast's directory may be given with a trailing slash.
  std::string trimmed = replay;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  source.name = replay == "-" || IsBroadcastUrl(replay) ? replay : BaseName(trimmed);
  source.compression = CompressionName(input.compression());
  // A mapped file's checksum runs beside the parse (the machine has a
  // second core), reading the file again rather than through the mapping:
  // the mapping's pages would all stay resident ahead of the parse.
  Status sha_status;
  std::thread sha;
  if (input.mapped()) {
    sha = std::thread([&] {
      MappedFile& file = input.file();
      Status s = Status::IoError("not mapped");
      if (file.is_mapped()) s = Sha256HexOfFile(replay, &source.sha256);
      if (!s.ok()) s = Sha256Hex(file.data(), file.size(), &source.sha256);
      sha_status = s;
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
  Progress progress(input.mapped() ? input.file().size() : 0, options.progress);
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
  // The parse reads the mapping once, front to back: pages behind it go
  // (the checksum reads the file on its own, not through the mapping).
  if (input.mapped()) {
    parser_options.consumed = [&input](uint64_t at) { input.file().DropBefore(at); };
  }
  auto owned_parser = std::make_unique<Parser>(&writer, parser_options);
  Parser& parser = *owned_parser;
  writer.SetParser(&parser);
  if (live) input.SetWaiting([&parser] { parser.InputWaiting(); });
  // A live run that fails keeps its live index as the last commit left it
  // (IndexWriter::AbandonLive; a no-op once finished).
  struct LiveKeeper {
    IndexWriter* writer;
    ~LiveKeeper() { writer->AbandonLive(Status::IoError("the index could not be finished")); }
  } live_keeper{&writer};
  const auto parse_start = std::chrono::steady_clock::now();
  const double parse_cpu_start = ThreadCpuSeconds();
  Status s = parser.Parse(input.source());
  report->parse_seconds = Since(parse_start);
  report->parse_cpu_seconds = ThreadCpuSeconds() - parse_cpu_start;
  progress.Finish();
  if (!s.ok()) {
    // The writer's own failure (disk full) outranks what it did to the parse.
    Status health = writer.Health();
    // Damaged compressed data may read as a bad replay before the
    // decompressor's checksum says so: that is the cause to report.
    Status failure = health.ok() ? input.FailureOf(s) : health;
    writer.AbandonLive(failure);
    return failure;
  }
  if (input.mapped()) {
    sha.join();
    GEM_RETURN_IF_ERROR(sha_status);
    source.bytes = input.file().size();
    source.replay_sha256 = source.sha256;
    source.replay_bytes = source.bytes;
  } else {
    // The parse read the stream to its end: the reading thread is done
    // with both checksums.
    input.WaitForReader();
    source.bytes = input.input_bytes();
    source.replay_bytes = replay_bytes;
    // (No bytes at all: the empty input's digest.)
    if (!input_sha) input_sha.emplace();
    if (!replay_sha) replay_sha.emplace();
    GEM_RETURN_IF_ERROR(input_sha->Finish(&source.sha256));
    GEM_RETURN_IF_ERROR(replay_sha->Finish(&source.replay_sha256));
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

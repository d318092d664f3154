#include "indexer/indexer.h"

#include <sys/stat.h>

#include <chrono>
#include <thread>

#include "core/mapped_file.h"
#include "core/match/games.h"
#include "core/parser.h"
#include "indexer/file_paths.h"
#include "indexer/output_file.h"
#include "indexer/progress.h"
#include "indexer/sha256.h"
#include "indexer/sqlite_db.h"

namespace gem::index {
namespace {

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Status IndexReplay(const std::string& replay, const std::string& out,
                   const IndexOptions& options, IndexReport* report) {
  const auto start = std::chrono::steady_clock::now();
  MappedFile file;
  GEM_RETURN_IF_ERROR(file.Open(replay));
  OutputFile output;
  GEM_RETURN_IF_ERROR(output.Prepare(out, options.force));

  // The checksum runs beside the parse (the machine has a second core).
  SourceInfo source;
  source.name = BaseName(replay);
  source.bytes = file.size();
  // A regular file is read again for it rather than through the mapping:
  // the mapping's pages would all stay resident ahead of the parse.
  Status sha_status;
  std::thread sha([&] {
    Status s = Status::IoError("not mapped");
    if (file.is_mapped()) s = Sha256HexOfFile(replay, &source.sha256);
    if (!s.ok()) s = Sha256Hex(file.data(), file.size(), &source.sha256);
    sha_status = s;
  });
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
  if (!Parser::ReadHeader(file.data(), file.size(), &header, &game).ok()) game.clear();

  Db db;
  GEM_RETURN_IF_ERROR(db.Open(output.temp_path()));
  Progress progress(file.size(), options.progress);
  IndexWriter writer(&db, &progress);
  writer.SetKeyframes(options.keyframe_seconds, options.keyframe_max_logged);
  GEM_RETURN_IF_ERROR(writer.Open(match::TimelineColumnsFor(game), match::SchemaFor(game),
                                  output.directory()));

  ParserOptions parser_options;
  parser_options.match_layer = options.match_layer;
  parser_options.game_tables = options.game_tables;
  parser_options.timeline_step = options.timeline_step;
  // The parse reads the mapping once, front to back: pages behind it go
  // (the checksum reads the file on its own, not through the mapping).
  parser_options.consumed = [&file](uint64_t at) { file.DropBefore(at); };
  Parser parser(&writer, parser_options);
  const auto parse_start = std::chrono::steady_clock::now();
  Status s = parser.Parse(file.data(), file.size());
  report->parse_seconds = Since(parse_start);
  progress.Finish();
  if (!s.ok()) {
    // The writer's own failure (disk full) outranks what it did to the parse.
    Status health = writer.Health();
    return health.ok() ? s : health;
  }
  sha.join();
  GEM_RETURN_IF_ERROR(sha_status);
  // The bulk of the file goes to disk while the smaller tables are written.
  GEM_RETURN_IF_ERROR(writer.Finish(parser, source, [&output] { output.StartWriteback(); }));
  GEM_RETURN_IF_ERROR(db.Close());
  GEM_RETURN_IF_ERROR(output.Commit());

  report->meta = parser.metadata();
  report->stats = writer.stats();
  struct stat st;
  if (stat(out.c_str(), &st) == 0) report->db_bytes = static_cast<uint64_t>(st.st_size);
  report->seconds = Since(start);
  return Status::Ok();
}

}  // namespace gem::index

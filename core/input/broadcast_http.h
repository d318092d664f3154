// HttpFragments: a broadcast relay over HTTP or HTTPS (core/input/broadcast.h),
// read as demoinfocs and demofile-net read CSTV: GET <base>/sync (and its
// token_redirect: the base it names), <base>/<signup_fragment>/start,
// <base>/<fragment>/full, then <base>/<n>/delta for n from that fragment.
//
// A fragment the relay does not have yet (404, 405) is asked for again
// every kNotReadySeconds; a failed request (a dropped or refused
// connection, a timeout, a 5xx) again after a pause that starts at 1 s and
// grows by half each time, to kMaxBackoffSeconds, resuming at the same
// fragment. When no fragment has come for `give_up_seconds`, a delta
// counts as missing (the broadcast ends there: a cut replay), and a sync,
// start or full as an error naming the last failure. A body over
// kMaxFragmentBytes (by its Content-Length, or as it comes) is refused
// with no retry (bad data), as is a 4xx other than 404 and 405 (an input
// error). A 200 with an empty body counts as not ready: relays send none.
//
// libcurl (Debian's libcurl4) is loaded when the first relay is opened:
// a replay file never needs it, and gem-index's start-up loads libc and
// libm only.
#ifndef GEM_CORE_INPUT_BROADCAST_HTTP_H_
#define GEM_CORE_INPUT_BROADCAST_HTTP_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "core/input/broadcast_source.h"

namespace gem {

// Whether `path` names a relay (http:// or https://).
bool IsBroadcastUrl(const std::string& path);

class HttpFragments : public FragmentStore {
 public:
  static constexpr uint64_t kMaxFragmentBytes = uint64_t{64} << 20;
  static constexpr double kNotReadySeconds = 0.5;
  static constexpr double kMaxBackoffSeconds = 8;
  static constexpr double kRequestSeconds = 10;

  // Loads libcurl; InputError when it cannot be.
  static Status Open(const std::string& url, double give_up_seconds,
                     std::unique_ptr<HttpFragments>* out);
  ~HttpFragments() override;

  Status Sync(std::string* json) override;
  Status Fetch(Kind kind, int64_t n, std::string* body, bool* missing) override;
  bool HasDeltaAfter(int64_t n) override;

 private:
  // kRefused: a body that is no fragment's (too big); kDenied: a 4xx the
  // relay means (401, 403, 410, ...).
  enum class Got { kBody, kNotReady, kFailed, kRefused, kDenied };
  HttpFragments(std::string base, double give_up_seconds)
      : base_(std::move(base)), give_up_seconds_(give_up_seconds) {}
  // One GET of base_ + path: the body, not there yet, a failure worth
  // retrying, or one that is not (*error says which).
  Got Get(const std::string& path, std::string* body, std::string* error);
  // GETs `path` until it comes, backing off as above; *missing when the
  // relay gave nothing for give_up_seconds (*error the last failure).
  Status GetPatiently(const std::string& path, std::string* body, bool* missing,
                      std::string* error);

  std::string base_;
  double give_up_seconds_;
  void* handle_ = nullptr;  // CURL*, reused: its connection stays open
  std::chrono::steady_clock::time_point last_fragment_ = std::chrono::steady_clock::now();
};

}  // namespace gem

#endif  // GEM_CORE_INPUT_BROADCAST_HTTP_H_

#include "core/input/broadcast_http.h"

#include <curl/curl.h>
#include <dlfcn.h>

#include <algorithm>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

namespace gem {
namespace {

// libcurl's functions gem calls, found in the library loaded at run time.
struct CurlApi {
  CURL* (*easy_init)() = nullptr;
  CURLcode (*easy_setopt)(CURL*, CURLoption, ...) = nullptr;
  CURLcode (*easy_perform)(CURL*) = nullptr;
  CURLcode (*easy_getinfo)(CURL*, CURLINFO, ...) = nullptr;
  void (*easy_cleanup)(CURL*) = nullptr;
  const char* (*easy_strerror)(CURLcode) = nullptr;
  CURLcode (*global_init)(long) = nullptr;
};

const CurlApi* LoadCurl(std::string* error) {
  static CurlApi api;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [] {
    void* lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
      failure = std::string("cannot load libcurl (apt install libcurl4): ") + dlerror();
      return;
    }
    auto find = [&](const char* name) { return dlsym(lib, name); };
    api.easy_init = reinterpret_cast<decltype(api.easy_init)>(find("curl_easy_init"));
    api.easy_setopt = reinterpret_cast<decltype(api.easy_setopt)>(find("curl_easy_setopt"));
    api.easy_perform = reinterpret_cast<decltype(api.easy_perform)>(find("curl_easy_perform"));
    api.easy_getinfo = reinterpret_cast<decltype(api.easy_getinfo)>(find("curl_easy_getinfo"));
    api.easy_cleanup = reinterpret_cast<decltype(api.easy_cleanup)>(find("curl_easy_cleanup"));
    api.easy_strerror =
        reinterpret_cast<decltype(api.easy_strerror)>(find("curl_easy_strerror"));
    api.global_init = reinterpret_cast<decltype(api.global_init)>(find("curl_global_init"));
    if (!api.easy_init || !api.easy_setopt || !api.easy_perform || !api.easy_getinfo ||
        !api.easy_cleanup || !api.easy_strerror || !api.global_init) {
      failure = "libcurl lacks the functions gem calls";
      return;
    }
    if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) failure = "libcurl does not start";
  });
  if (!failure.empty()) {
    *error = failure;
    return nullptr;
  }
  return &api;
}

struct Sink {
  std::string* body;
  bool too_big = false;
};

size_t Write(char* data, size_t size, size_t count, void* user) {
  Sink* sink = static_cast<Sink*>(user);
  const size_t n = size * count;
  if (sink->body->size() + n > HttpFragments::kMaxFragmentBytes) {
    sink->too_big = true;
    return 0;  // libcurl stops the transfer
  }
  sink->body->append(data, n);
  return n;
}

double Since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

bool IsBroadcastUrl(const std::string& path) {
  return path.rfind("http://", 0) == 0 || path.rfind("https://", 0) == 0;
}

Status HttpFragments::Open(const std::string& url, double give_up_seconds,
                           std::unique_ptr<HttpFragments>* out) {
  std::string error;
  const CurlApi* curl = LoadCurl(&error);
  if (curl == nullptr) return Status::InputError(error);
  std::string base = url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  std::unique_ptr<HttpFragments> f(new HttpFragments(base, give_up_seconds));
  f->handle_ = curl->easy_init();
  if (f->handle_ == nullptr) return Status::InputError("libcurl cannot make a request");
  *out = std::move(f);
  return Status::Ok();
}

HttpFragments::~HttpFragments() {
  std::string ignored;
  if (handle_ != nullptr) LoadCurl(&ignored)->easy_cleanup(static_cast<CURL*>(handle_));
}

HttpFragments::Got HttpFragments::Get(const std::string& path, std::string* body,
                                      std::string* error) {
  std::string ignored;
  const CurlApi& c = *LoadCurl(&ignored);
  CURL* h = static_cast<CURL*>(handle_);
  const std::string url = base_ + path;
  body->clear();
  Sink sink{body};
  c.easy_setopt(h, CURLOPT_URL, url.c_str());
  c.easy_setopt(h, CURLOPT_WRITEFUNCTION, &Write);
  c.easy_setopt(h, CURLOPT_WRITEDATA, &sink);
  c.easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");  // relays send gzip
  c.easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  // A relay that stops sending for kRequestSeconds fails the request (a
  // large fragment on a slow link may take longer in all).
  c.easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(kRequestSeconds * 1000));
  c.easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
  c.easy_setopt(h, CURLOPT_LOW_SPEED_TIME, static_cast<long>(kRequestSeconds));
  c.easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(kMaxFragmentBytes));
  c.easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  c.easy_setopt(h, CURLOPT_USERAGENT, "gem-index");
  const CURLcode rc = c.easy_perform(h);
  if (sink.too_big || rc == CURLE_FILESIZE_EXCEEDED) {
    *error = url + " sends more than " + std::to_string(kMaxFragmentBytes) +
             " bytes, more than a fragment may";
    return Got::kRefused;
  }
  if (rc != CURLE_OK) {
    *error = url + ": " + c.easy_strerror(rc);
    return Got::kFailed;
  }
  long status = 0;
  c.easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  // A relay never sends an empty fragment: one is not ready yet (else a
  // relay answering empty bodies would be read past without a pause).
  if (status == 200 && !body->empty()) return Got::kBody;
  *error = url + (status == 200 ? std::string(" answers an empty body")
                                : " answers HTTP " + std::to_string(status));
  if (status == 200 || status == 404 || status == 405) return Got::kNotReady;
  if (status >= 500 || status == 408 || status == 429) return Got::kFailed;
  return Got::kDenied;
}

Status HttpFragments::GetPatiently(const std::string& path, std::string* body, bool* missing,
                                   std::string* error) {
  *missing = false;
  double backoff = 1;
  for (;;) {
    const Got got = Get(path, body, error);
    if (got == Got::kBody) {
      last_fragment_ = std::chrono::steady_clock::now();
      return Status::Ok();
    }
    if (got == Got::kRefused) return Status::Corrupt(*error);
    if (got == Got::kDenied) return Status::InputError(*error);
    const bool failed = got == Got::kFailed;
    const double left = give_up_seconds_ - Since(last_fragment_);
    if (left <= 0) {
      *missing = true;
      return Status::Ok();
    }
    const double pause = std::min(left, failed ? backoff : kNotReadySeconds);
    if (failed) backoff = std::min(backoff * 1.5, kMaxBackoffSeconds);
    std::this_thread::sleep_for(std::chrono::duration<double>(pause));
  }
}

Status HttpFragments::Sync(std::string* json) {
  bool missing = false;
  std::string error;
  GEM_RETURN_IF_ERROR(GetPatiently("/sync", json, &missing, &error));
  if (missing) return Status::InputError("no broadcast sync: " + error);
  // The root's sync may send the reader on to its match's base.
  const nlohmann::json doc = nlohmann::json::parse(*json, nullptr, false);
  if (doc.is_object()) {
    auto it = doc.find("token_redirect");
    if (it != doc.end() && it->is_string() && !it->get<std::string>().empty()) {
      std::string token = it->get<std::string>();
      while (!token.empty() && token.back() == '/') token.pop_back();
      while (!token.empty() && token.front() == '/') token.erase(0, 1);
      base_ += "/" + token;
      GEM_RETURN_IF_ERROR(GetPatiently("/sync", json, &missing, &error));
      if (missing) return Status::InputError("no broadcast sync: " + error);
    }
  }
  return Status::Ok();
}

Status HttpFragments::Fetch(Kind kind, int64_t n, std::string* body, bool* missing) {
  std::string error;
  const std::string path = "/" + std::to_string(n) + "/" + KindName(kind);
  GEM_RETURN_IF_ERROR(GetPatiently(path, body, missing, &error));
  if (*missing && kind != Kind::kDelta) {
    return Status::InputError("the relay gave no " + path.substr(1) + " for " +
                              std::to_string(give_up_seconds_) + " s: " + error);
  }
  return Status::Ok();
}

bool HttpFragments::HasDeltaAfter(int64_t n) {
  std::string body, error;
  return Get("/" + std::to_string(n + 1) + "/delta", &body, &error) == Got::kBody;
}

}  // namespace gem

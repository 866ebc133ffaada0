#include "host/uart_protocol.h"

#include <algorithm>

namespace simt::host {

namespace {
void put32(std::vector<uint8_t>& f, uint32_t w) {
  for (int i = 0; i < 4; ++i) f.push_back(static_cast<uint8_t>(w >> 8 * i));
}
void putCrc(std::vector<uint8_t>& f) {
  const uint16_t c = uart::crc16(f.data(), f.size());
  f.push_back(static_cast<uint8_t>(c >> 8));
  f.push_back(static_cast<uint8_t>(c));
}
bool isWrite(uint8_t cmd) { return cmd == uart::CmdWrite || cmd == uart::CmdBurstWrite; }
}  // namespace

const char* statusName(uint8_t status) {
  switch (status) {
    case uart::StOk: return "ok";
    case uart::StDup: return "ok (repeated write, not executed again)";
    case uart::ErrCrc: return "CRC error";
    case uart::ErrCmd: return "unknown command";
    case uart::ErrLen: return "bad count";
    case uart::ErrTimeout: return "timeout between bytes";
    case uart::ErrFraming: return "framing error";
    default: return "unknown status";
  }
}

std::vector<uint8_t> encodeRequest(const Request& r) {
  std::vector<uint8_t> f = {uart::kSyncReq, r.cmd, r.seq, static_cast<uint8_t>(r.addr),
                            static_cast<uint8_t>(r.addr >> 8), r.cnt};
  for (uint32_t w : r.data) put32(f, w);
  putCrc(f);
  return f;
}

std::vector<uint8_t> encodeResponse(const Response& r) {
  std::vector<uint8_t> f = {uart::kSyncRsp, r.status, r.seq, static_cast<uint8_t>(r.data.size())};
  for (uint32_t w : r.data) put32(f, w);
  putCrc(f);
  return f;
}

size_t requestBytes(uint8_t cmd, int cnt) { return 8 + (isWrite(cmd) ? 4 * static_cast<size_t>(cnt) : 0); }
size_t responseBytes(uint8_t cmd, int cnt) {
  const size_t words = cmd == uart::CmdStatus ? uart::kStatusWords
                       : (cmd == uart::CmdRead || cmd == uart::CmdBurstRead) ? static_cast<size_t>(cnt) : 0;
  return 6 + 4 * words;
}

ResponseDecoder::Event ResponseDecoder::feed(uint8_t b) {
  if (buf_.empty() && b != uart::kSyncRsp) {
    ++skipped_;
    return Event::None;
  }
  buf_.push_back(b);
  if (buf_.size() < 4 || buf_.size() < 6 + 4 * static_cast<size_t>(buf_[3])) return Event::None;
  const bool good = uart::crc16(buf_.data(), buf_.size()) == 0;
  if (good) {
    rsp_.status = buf_[1];
    rsp_.seq = buf_[2];
    rsp_.data.assign(buf_[3], 0);
    for (size_t i = 0; i < rsp_.data.size(); ++i)
      for (int j = 0; j < 4; ++j) rsp_.data[i] |= static_cast<uint32_t>(buf_[4 + 4 * i + j]) << 8 * j;
  }
  buf_.clear();
  return good ? Event::Frame : Event::BadCrc;
}

uint64_t UartClient::answerTimeoutUs(size_t reqBytes, size_t rspBytes) const {
  const uint64_t bits = 10 * (reqBytes + rspBytes) + static_cast<uint64_t>(opt_.timeoutBits) + 40;
  return bits * 1'000'000 / opt_.baud + 1 + opt_.latencyUs;
}

void UartClient::drain() {
  const uint64_t quietUs = (static_cast<uint64_t>(opt_.timeoutBits) + 20) * 1'000'000 / opt_.baud + 1 + opt_.latencyUs;
  // Bounded: a line that never goes quiet (a wrong baud rate on a busy line) is an error.
  for (int i = 0; i < 1 << 20; ++i) {
    if (!recv(quietUs)) return;
  }
  throw LinkError(LinkError::Kind::NoAnswer, "the line never went quiet");
}

std::optional<uint8_t> UartClient::recv(uint64_t timeoutUs) {
  const std::optional<uint8_t> b = link_.recv(timeoutUs);
  if (b) ++stats_.bytesReceived;
  return b;
}

Response UartClient::transact(Request r) {
  r.seq = seq_++;
  const std::vector<uint8_t> bytes = encodeRequest(r);
  const uint64_t tmo = answerTimeoutUs(bytes.size(), responseBytes(r.cmd, r.cnt));
  ++stats_.transactions;
  std::string last = "no answer";
  for (int attempt = 0; attempt <= opt_.retries; ++attempt) {
    if (attempt > 0) {
      ++stats_.retries;
      drain();
    }
    link_.send(bytes);
    stats_.bytesSent += bytes.size();
    ResponseDecoder dec;
    for (;;) {
      const std::optional<uint8_t> b = recv(tmo);
      if (!b) {
        ++stats_.timeouts;
        last = "no answer within " + std::to_string(tmo) + " us";
        break;
      }
      const auto ev = dec.feed(*b);
      if (ev == ResponseDecoder::Event::BadCrc) {
        ++stats_.badCrc;
        last = "corrupt answer (CRC)";
        break;
      }
      if (ev != ResponseDecoder::Event::Frame) continue;
      const Response& rsp = dec.frame();
      if (rsp.seq != r.seq) {  // an answer to an earlier attempt that came late
        ++stats_.stale;
        continue;
      }
      if (rsp.ok()) {
        const size_t want = responseBytes(r.cmd, r.cnt) - 6;
        if (rsp.data.size() * 4 != want) {
          last = "answer with " + std::to_string(rsp.data.size()) + " words";
          break;
        }
        return rsp;
      }
      ++stats_.errorAnswers;
      last = std::string("bridge answered: ") + statusName(rsp.status);
      if (rsp.status == uart::ErrCmd || rsp.status == uart::ErrLen)
        throw LinkError(LinkError::Kind::Refused, last);  // the same request fails again
      break;
    }
  }
  throw LinkError(stats_.timeouts > 0 && last.rfind("no answer", 0) == 0 ? LinkError::Kind::NoAnswer
                                                                          : LinkError::Kind::Corrupt,
                  "UART bridge: " + last + " after " + std::to_string(opt_.retries + 1) + " attempts");
}

uint32_t UartClient::read(uint16_t addr) {
  const Response r = transact({uart::CmdRead, 0, addr, 1, {}});
  ++stats_.payloadWords;
  return r.data[0];
}

void UartClient::write(uint16_t addr, uint32_t data) {
  transact({uart::CmdWrite, 0, addr, 1, {data}});
  ++stats_.payloadWords;
}

std::vector<uint32_t> UartClient::readBurst(uint16_t addr, size_t words) {
  std::vector<uint32_t> out;
  while (out.size() < words) {
    const size_t n = std::min(words - out.size(), static_cast<size_t>(opt_.maxBurst));
    const Response r = transact({uart::CmdBurstRead, 0, static_cast<uint16_t>(addr + out.size()),
                                 static_cast<uint8_t>(n), {}});
    out.insert(out.end(), r.data.begin(), r.data.end());
    stats_.payloadWords += n;
  }
  return out;
}

void UartClient::writeBurst(uint16_t addr, const std::vector<uint32_t>& words) {
  for (size_t done = 0; done < words.size();) {
    const size_t n = std::min(words.size() - done, static_cast<size_t>(opt_.maxBurst));
    transact({uart::CmdBurstWrite, 0, static_cast<uint16_t>(addr + done), static_cast<uint8_t>(n),
              std::vector<uint32_t>(words.begin() + static_cast<long>(done), words.begin() + static_cast<long>(done + n))});
    done += n;
    stats_.payloadWords += n;
  }
}

UartClient::BridgeStatus UartClient::status() {
  const Response r = transact({uart::CmdStatus, 0, 0, 0, {}});
  BridgeStatus s;
  s.version = static_cast<uint8_t>(r.data[0] >> 16);
  s.maxBurst = static_cast<uint8_t>(r.data[0] >> 8);
  s.lastError = static_cast<uint8_t>(r.data[0]);
  s.good = static_cast<uint16_t>(r.data[1]);
  s.bad = static_cast<uint16_t>(r.data[1] >> 16);
  s.junk = static_cast<uint16_t>(r.data[2]);
  s.dropped = static_cast<uint16_t>(r.data[2] >> 16);
  if ((r.data[0] >> 24) != 0x53) throw LinkError(LinkError::Kind::Corrupt, "not a simtcore UART bridge");
  return s;
}

}  // namespace simt::host

#include "model/fpga/uart_bridge.h"

namespace simt::model {

namespace uart {
uint16_t crc16(uint16_t crc, uint8_t byte) {
  crc = static_cast<uint16_t>(crc ^ (static_cast<uint16_t>(byte) << 8));
  for (int i = 0; i < 8; ++i) crc = static_cast<uint16_t>((crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1);
  return crc;
}
uint16_t crc16(const uint8_t* data, size_t n, uint16_t crc) {
  for (size_t i = 0; i < n; ++i) crc = crc16(crc, data[i]);
  return crc;
}
}  // namespace uart

bool UartBridge::lenOk() const {
  switch (cmd_) {
    case uart::CmdRead:
    case uart::CmdWrite: return cnt_ == 1;
    case uart::CmdBurstRead:
    case uart::CmdBurstWrite: return cnt_ != 0 && cnt_ <= cfg_.maxBurst;
    case uart::CmdStatus: return cnt_ == 0;
    default: return false;
  }
}

void UartBridge::rxByte(uint8_t b, bool framingError) {
  switch (state_) {
    case State::Idle:
      if (!framingError && b == uart::kSyncReq) {
        state_ = State::Hdr;
        pos_ = 0;
        cmd_ = seq_ = cnt_ = 0;
        ferr_ = false;
        crc_ = uart::crc16(0xFFFF, b);
        buf_.clear();
      } else {
        ++ctr_.junk;
      }
      return;
    case State::Drain:
      return;
    default:
      break;
  }
  crc_ = uart::crc16(crc_, b);
  ferr_ = ferr_ || framingError;
  if (state_ == State::Hdr) {
    switch (pos_++) {
      case 0: cmd_ = b; break;
      case 1: seq_ = b; break;
      case 2: addr_ = static_cast<uint16_t>((addr_ & 0xFF00) | b); break;
      case 3: addr_ = static_cast<uint16_t>((addr_ & 0x00FF) | b << 8); break;
      default:
        cnt_ = b;
        pos_ = 0;
        state_ = (isWrite() && cnt_ != 0) ? State::Data : State::Crc;
    }
  } else if (state_ == State::Data) {
    asm_ = (asm_ & ~(0xFFu << 8 * (pos_ & 3))) | static_cast<uint32_t>(b) << 8 * (pos_ & 3);
    if ((pos_ & 3) == 3 && lenOk()) buf_.push_back(asm_);
    if (++pos_ == 4 * cnt_) {
      pos_ = 0;
      state_ = State::Crc;
    }
  } else if (++pos_ == 2) {
    complete();
  }
}

void UartBridge::complete() {
  if (ferr_ || crc_ != 0) {
    state_ = State::Drain;
    drainErr_ = ferr_ ? uart::ErrFraming : uart::ErrCrc;
    return;
  }
  state_ = State::Idle;
  if (cmd_ < uart::CmdRead || cmd_ > uart::CmdStatus) return respond(uart::ErrCmd, {});
  if (!lenOk()) return respond(uart::ErrLen, {});
  if (isWrite() && lastValid_ && lastWrite_ && seq_ == lastSeq_) return respond(uart::StDup, {});
  lastValid_ = true;
  lastWrite_ = isWrite();
  lastSeq_ = seq_;
  if (isWrite()) {
    for (int i = 0; i < cnt_; ++i) {
      const uint16_t a = static_cast<uint16_t>(addr_ + i);
      port_.write(a, buf_[static_cast<size_t>(i)]);
      accesses.push_back({true, a, buf_[static_cast<size_t>(i)]});
    }
    return respond(uart::StOk, {});
  }
  if (cmd_ == uart::CmdStatus) return respond(uart::StOk, {0, 0, 0});  // words filled in respond()
  std::vector<uint32_t> words;
  for (int i = 0; i < cnt_; ++i) {
    const uint16_t a = static_cast<uint16_t>(addr_ + i);
    const uint32_t d = port_.read(a);
    accesses.push_back({false, a, d});
    words.push_back(d);
  }
  respond(uart::StOk, words);
}

void UartBridge::idle() {
  if (state_ == State::Hdr || state_ == State::Data || state_ == State::Crc) {
    state_ = State::Idle;
    respond(ferr_ ? uart::ErrFraming : uart::ErrTimeout, {});
  } else if (state_ == State::Drain) {
    state_ = State::Idle;
    respond(drainErr_, {});
  }
}

void UartBridge::respond(uint8_t status, const std::vector<uint32_t>& wordsIn) {
  state_ = State::Idle;
  statuses.push_back(status);
  if (status == uart::StOk || status == uart::StDup) {
    ++ctr_.good;
  } else {
    ++ctr_.bad;
    ctr_.lastError = status;
  }
  std::vector<uint32_t> words = wordsIn;
  if (status == uart::StOk && cmd_ == uart::CmdStatus) {
    words = {0x53u << 24 | static_cast<uint32_t>(uart::kVersion) << 16 |
                 static_cast<uint32_t>(cfg_.maxBurst & 0xFF) << 8 | ctr_.lastError,
             static_cast<uint32_t>(ctr_.bad) << 16 | ctr_.good,
             static_cast<uint32_t>(ctr_.dropped) << 16 | ctr_.junk};
  }
  std::vector<uint8_t> f = {uart::kSyncRsp, status, seq_, static_cast<uint8_t>(words.size())};
  for (uint32_t w : words)
    for (int i = 0; i < 4; ++i) f.push_back(static_cast<uint8_t>(w >> 8 * i));
  const uint16_t c = uart::crc16(f.data(), f.size());
  f.push_back(static_cast<uint8_t>(c >> 8));
  f.push_back(static_cast<uint8_t>(c));
  tx.insert(tx.end(), f.begin(), f.end());
}

}  // namespace simt::model

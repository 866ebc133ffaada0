#include "host/serial_port.h"

#include <fcntl.h>
#include <linux/serial.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <utility>

namespace simt::host {

namespace {

const std::pair<uint32_t, speed_t> kBauds[] = {
    {1200, B1200},       {2400, B2400},       {4800, B4800},       {9600, B9600},
    {19200, B19200},     {38400, B38400},     {57600, B57600},     {115200, B115200},
    {230400, B230400},   {460800, B460800},   {500000, B500000},   {576000, B576000},
    {921600, B921600},   {1000000, B1000000}, {1152000, B1152000}, {1500000, B1500000},
    {2000000, B2000000}, {2500000, B2500000}, {3000000, B3000000}, {3500000, B3500000},
    {4000000, B4000000}};

std::string sysError(const std::string& what) { return what + ": " + std::strerror(errno); }

// How long a write may wait for the port to take bytes (a port that never does: an error).
constexpr int kSendTimeoutMs = 2000;

}  // namespace

std::vector<uint32_t> SerialPort::supportedBauds() {
  std::vector<uint32_t> v;
  for (const auto& b : kBauds) v.push_back(b.first);
  return v;
}

SerialPort::SerialPort(const std::string& path, uint32_t baud) : path_(path), baud_(baud) {
  speed_t speed = 0;
  for (const auto& b : kBauds) {
    if (b.first == baud) speed = b.second;
  }
  if (speed == 0) {
    std::string list;
    for (uint32_t b : supportedBauds()) list += (list.empty() ? "" : ", ") + std::to_string(b);
    throw PortError("--baud " + std::to_string(baud) +
                    ": not a rate a serial port can be set to (" + list + ")");
  }
  const int fd = ::open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT) {
      throw PortError(path +
                      ": no such port (is the board plugged in? a USB-UART appears as /dev/ttyUSB0 "
                      "or /dev/ttyACM0)");
    }
    if (err == EACCES)
      throw PortError(path + ": permission denied (add yourself to the dialout group)");
    if (err == EBUSY) throw PortError(path + ": in use by another program");
    errno = err;
    throw PortError(sysError(path));
  }
  fd_.reset(fd);
  if (!::isatty(fd))
    throw PortError(path + ": not a terminal (a serial port or pseudo-terminal is needed)");
  termios tio{};
  if (::tcgetattr(fd, &tio) != 0) throw PortError(sysError(path + ": tcgetattr"));
  ::cfmakeraw(&tio);
  tio.c_cflag |= CLOCAL | CREAD | CS8;
  tio.c_cflag &= ~static_cast<tcflag_t>(CSTOPB | PARENB | CRTSCTS);
  tio.c_iflag &= ~static_cast<tcflag_t>(IXON | IXOFF | IXANY);
  tio.c_cc[VMIN] = 0;
  tio.c_cc[VTIME] = 0;
  if (::cfsetispeed(&tio, speed) != 0 || ::cfsetospeed(&tio, speed) != 0) {
    throw PortError(path + ": the OS refuses " + std::to_string(baud) + " baud");
  }
  if (::tcsetattr(fd, TCSANOW, &tio) != 0) {
    throw PortError(
        sysError(path + ": the port refuses raw mode at " + std::to_string(baud) + " baud"));
  }
  termios back{};
  if (::tcgetattr(fd, &back) != 0 || ::cfgetospeed(&back) != speed ||
      ::cfgetispeed(&back) != speed) {
    throw PortError(path + ": the port did not take " + std::to_string(baud) + " baud");
  }
  // Best effort, for a real port: nobody else opens it while we run, and an FTDI's latency
  // timer at 1 ms instead of 16 (the turnaround per transaction). A pseudo-terminal has
  // neither; that is fine.
  (void)::ioctl(fd, TIOCEXCL);
  serial_struct ser{};
  if (::ioctl(fd, TIOCGSERIAL, &ser) == 0) {
    ser.flags |= ASYNC_LOW_LATENCY;
    (void)::ioctl(fd, TIOCSSERIAL, &ser);
  }
  ::tcflush(fd, TCIOFLUSH);  // nothing stale from before
}

SerialPort::~SerialPort() {
  (void)::ioctl(fd_.get(), TIOCNXCL);  // the exclusive flag outlives us if another fd stays open
}

void SerialPort::send(const std::vector<uint8_t>& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_.get(), bytes.data() + done, bytes.size() - done);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR) {
      throw LinkError(LinkError::Kind::NoAnswer, sysError(path_ + ": write"));
    }
    pollfd p{fd_.get(), POLLOUT, 0};
    const int r = ::poll(&p, 1, kSendTimeoutMs);
    if (r == 0) throw LinkError(LinkError::Kind::NoAnswer, path_ + ": the port takes no data");
    if (r < 0 && errno != EINTR)
      throw LinkError(LinkError::Kind::NoAnswer, sysError(path_ + ": poll"));
  }
}

std::optional<uint8_t> SerialPort::recv(uint64_t timeoutUs) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point end = Clock::now() + std::chrono::microseconds(timeoutUs);
  while (pos_ >= buf_.size()) {
    const auto left =
        std::chrono::duration_cast<std::chrono::microseconds>(end - Clock::now()).count();
    if (left <= 0) return std::nullopt;
    pollfd p{fd_.get(), POLLIN, 0};
    const int r = ::poll(&p, 1, static_cast<int>((left + 999) / 1000));
    if (r < 0) {
      if (errno == EINTR) continue;
      throw LinkError(LinkError::Kind::NoAnswer, sysError(path_ + ": poll"));
    }
    if (r == 0) continue;
    if (p.revents & POLLIN) {
      uint8_t tmp[4096];
      const ssize_t n = ::read(fd_.get(), tmp, sizeof tmp);
      if (n > 0) {
        buf_.assign(tmp, tmp + n);
        pos_ = 0;
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      throw LinkError(LinkError::Kind::NoAnswer,
                      n < 0 ? sysError(path_ + ": read") : path_ + ": end of file");
    }
    if (p.revents & (POLLHUP | POLLERR | POLLNVAL)) {
      throw LinkError(LinkError::Kind::NoAnswer, path_ + ": the port hung up (unplugged?)");
    }
  }
  return buf_[pos_++];
}

}  // namespace simt::host

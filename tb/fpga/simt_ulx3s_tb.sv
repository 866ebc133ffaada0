// Test wrapper of the ULX3S board top (rtl/fpga/boards/ulx3s/simt_ulx3s_top.sv) for the
// host-link tests' second board build (tb/fpga/uart_board.h, BoardBuild::Other): the board's
// pins under the names the tests' pin model drives (clk_i, rst_ni, uart_rx_i, uart_tx_o and
// the status lines), so the same tests run the board top as users build it: the PLL (its
// simulation stand-in: the oscillator's clock, locked), the reset button through the
// synchroniser, the FTDI pins, the LEDs and the baud divisor the top derives from its clock.
// Not synthesized (testbench only).
module simt_ulx3s_tb #(
  parameter int NumWarps    = 2,
  parameter int NumCtas     = 2,
  parameter int CtaWarps    = NumWarps,
  parameter int QueueDepth  = 16,
  parameter int ImemDepth   = 256,
  parameter int ParamWords  = 16,
  parameter int SharedWords = 256,
  parameter int DataWords   = 2048,
  parameter int NumLanes    = 8,
  parameter bit HasFpu      = 1'b1,
  parameter int FpLanes     = NumLanes,
  parameter int Baud        = 115200,
  parameter int TimeoutBits = 2000
) (
  input  logic clk_i,       // the board's 25 MHz oscillator pin
  input  logic rst_ni,      // the power button (low: pressed)
  input  logic uart_rx_i,   // the FTDI's transmit line
  output logic uart_tx_o,   // the FTDI's receive line
  output logic busy_o,      // LED 0
  output logic done_o,      // LED 1
  output logic fault_o,     // LED 2
  output logic exc_o,       // LED 3
  output logic link_err_o   // the bridge's error pulse (LED 4 stretches it to 0.1-0.2 s)
);

  logic [7:0] led;
  logic       wifi_gpio0;

  simt_ulx3s_top #(
    .WithCore    (1'b1),
    .NumWarps    (NumWarps),
    .NumCtas     (NumCtas),
    .CtaWarps    (CtaWarps),
    .QueueDepth  (QueueDepth),
    .ImemDepth   (ImemDepth),
    .ParamWords  (ParamWords),
    .SharedWords (SharedWords),
    .DataWords   (DataWords),
    .NumLanes    (NumLanes),
    .HasFpu      (HasFpu),
    .FpLanes     (FpLanes),
    .Baud        (Baud),
    .TimeoutBits (TimeoutBits)
  ) u_board (
    .clk_25mhz_i  (clk_i),
    .btn_pwr_ni   (rst_ni),
    .ftdi_txd_i   (uart_rx_i),
    .ftdi_rxd_o   (uart_tx_o),
    .led_o        (led),
    .wifi_gpio0_o (wifi_gpio0)
  );

  assign busy_o     = led[0];
  assign done_o     = led[1];
  assign fault_o    = led[2];
  assign exc_o      = led[3];
  assign link_err_o = u_board.link_err;

  // The board's fixed outputs: the PLL locked (LED 6), the ESP32 held off, LED 5 dark; the
  // error LED lights the cycle after every error pulse.
  logic err_d, err_q;
  assign err_d = link_err_o && u_board.rst_n;
  always_ff @(posedge clk_i) begin
    err_q <= err_d;
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (led[6] && wifi_gpio0 && !led[5]) else $error("ulx3s tb: a fixed board output is wrong");
      assert (led[3:0] == {u_board.exc, u_board.fault, u_board.done, u_board.busy})
        else $error("ulx3s tb: LEDs 0-3 %b are not busy, done, fault, exception", led[3:0]);
      if (err_q) assert (led[4]) else $error("ulx3s tb: a link error with LED 4 dark");
    end
  end

endmodule

// Board top for the ULX3S with an LFE5U-85F (docs/blocks/fpga_top.md, "Boards"): the board's
// 25 MHz oscillator through an ECP5 PLL to the core clock, the FTDI serial port to the UART
// bridge in front of the core (simt_fpga_uart_top), the power button as reset (synchronised,
// held until the PLL locks), and LEDs:
//   led[0] busy, led[1] done, led[2] fault, led[3] token-queue exception (waits for the
//   host), led[4] link error (a frame answered with an error, stretched to 0.1-0.2 s),
//   led[6] PLL locked, led[7] heartbeat (about 1 Hz: the core clock runs).
// Pins: constraints/ulx3s_v20.lpf. Built by `make bitstream BOARD=ulx3s`.
//
// WithCore 0 builds the board's link without the core (the core does not fit the 85F yet,
// docs/synthesis.md): the UART bridge answers from a DataWords block-RAM memory that every
// host address maps into (modulo DataWords), so a host can test the serial link, the
// protocol and the board; a launch cannot run (status reads whatever word 0 holds).
module simt_ulx3s_top #(
  parameter bit WithCore       = 1'b1,
  // The core (simt_fpga_top's parameters and defaults; `make bitstream` sets its own).
  parameter int NumWarps       = 2,
  parameter int NumCtas        = 2,
  parameter int CtaWarps       = NumWarps,
  parameter int QueueDepth     = 16,
  parameter int NumBarSlots    = 4,
  parameter int ImemDepth      = 256,
  parameter int ParamWords     = 16,
  parameter int SharedWords    = 256,
  parameter int DataWords      = 2048,
  parameter int NumLanes       = 32,   // physical ALU lanes: 8 is the board's design point
  parameter bit HasFpu         = 1'b0, // FP32 lanes, FpLanes of them (an FP instruction in passes)
  parameter int FpLanes        = NumLanes,
  // The barrier table's thread state: "distributed" puts it in the ECP5's LUT RAM even at one
  // or two words a RAM, where Yosys keeps flip-flops ("auto"; simt_sm's BarRamStyle). The
  // 2 x 4 core routes either way at the same clock, but placed, the LUT RAM takes more logic
  // cells than the flip-flops' enables and multiplexers (docs/synthesis.md): "auto".
  parameter     BarRamStyle    = "auto",
  // The PLL: 25 MHz * PllClkfbDiv / PllClkiDiv (ecppll's values; default 50 MHz).
  parameter int PllClkiDiv     = 1,
  parameter int PllClkfbDiv    = 2,
  parameter int PllClkopDiv    = 12,
  parameter int PllClkopCphase = 5,
  parameter int Baud           = 115200,
  parameter int TimeoutBits    = 2000,   // the bridge's: an unfinished frame is dropped after
                                         // this many quiet bit times
  localparam int CoreHz        = 25_000_000 / PllClkiDiv * PllClkfbDiv,
  localparam int BaudDiv       = (CoreHz + Baud / 2) / Baud,
  localparam int BeatW         = $clog2(CoreHz),         // heartbeat: its top bit, ~1 Hz
  localparam int StretchW      = $clog2(CoreHz / 10)     // link error LED: 0.1-0.2 s
) (
  input  logic       clk_25mhz_i,    // the board's oscillator
  input  logic       btn_pwr_ni,     // BTN_PWRn, low while pressed: reset
  input  logic       ftdi_txd_i,     // the FTDI's transmit line: host to board
  output logic       ftdi_rxd_o,     // the FTDI's receive line: board to host
  output logic [7:0] led_o,
  output logic       wifi_gpio0_o    // held high: the ESP32 leaves the FPGA alone
);

  logic clk, locked, rst_n;
  logic busy, done, fault, exc, link_err;

  simt_ecp5_pll #(
    .InMHz       (25),
    .ClkiDiv     (PllClkiDiv),
    .ClkfbDiv    (PllClkfbDiv),
    .ClkopDiv    (PllClkopDiv),
    .ClkopCphase (PllClkopCphase)
  ) u_pll (
    .clk_i    (clk_25mhz_i),
    .clk_o    (clk),
    .locked_o (locked)
  );

  simt_reset_sync #(
    .Stages (3)
  ) u_rst (
    .clk_i  (clk),
    .rst_ni (btn_pwr_ni && locked),
    .rst_no (rst_n)
  );

  if (WithCore) begin : g_core
    simt_fpga_uart_top #(
      .NumWarps    (NumWarps),
      .NumCtas     (NumCtas),
      .CtaWarps    (CtaWarps),
      .QueueDepth  (QueueDepth),
      .NumBarSlots (NumBarSlots),
      .ImemDepth   (ImemDepth),
      .ParamWords  (ParamWords),
      .SharedWords (SharedWords),
      .DataWords   (DataWords),
      .NumLanes    (NumLanes),
      .HasFpu      (HasFpu),
      .FpLanes     (FpLanes),
      .BarRamStyle (BarRamStyle),
      .BaudDiv     (BaudDiv),
      .TimeoutBits (TimeoutBits)
    ) u_top (
      .clk_i      (clk),
      .rst_ni     (rst_n),
      .uart_rx_i  (ftdi_txd_i),
      .uart_tx_o  (ftdi_rxd_o),
      .busy_o     (busy),
      .done_o     (done),
      .fault_o    (fault),
      .exc_o      (exc),
      .link_err_o (link_err)
    );
  end else begin : g_link
    simt_ulx3s_link_test #(
      .DataWords (DataWords),
      .BaudDiv   (BaudDiv)
    ) u_link (
      .clk_i      (clk),
      .rst_ni     (rst_n),
      .uart_rx_i  (ftdi_txd_i),
      .uart_tx_o  (ftdi_rxd_o),
      .link_err_o (link_err)
    );
    assign busy  = 1'b0;
    assign done  = 1'b0;
    assign fault = 1'b0;
    assign exc   = 1'b0;
  end

  // ---- LEDs -------------------------------------------------------------------------------
  logic [BeatW-1:0]    beat_d, beat_q;
  logic [StretchW-1:0] err_d, err_q;

  assign beat_d = beat_q + 1'b1;
  assign err_d  = link_err ? '1 : (err_q != '0) ? err_q - 1'b1 : err_q;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      beat_q <= '0;
      err_q  <= '0;
    end else begin
      beat_q <= beat_d;
      err_q  <= err_d;
    end
  end

  assign led_o        = {beat_q[BeatW-1], locked, 1'b0, err_q != '0, exc, fault, done, busy};
  assign wifi_gpio0_o = 1'b1;

endmodule

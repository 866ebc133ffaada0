// The core's FPGA top behind the UART bridge: what a board top instantiates next to its
// clock, reset and pins (docs/blocks/uart_bridge.md). A host on the serial line loads code,
// params and data, starts the kernel, polls the status and reads results through the
// bridge's framed protocol; every host-port access of simt_fpga_top's register map is
// reachable, the geometry words the host takes its limits from included. BaudDiv: core
// clocks per bit (clock / baud rate, at least 4).
module simt_fpga_uart_top #(
  parameter int NumWarps    = 2,
  parameter int NumCtas     = 2,
  parameter int CtaWarps    = NumWarps,
  parameter int QueueDepth  = 16,
  parameter int NumBarSlots = 4,
  parameter int ImemDepth   = 256,
  parameter int ParamWords  = 64,
  parameter int SharedWords = 256,
  parameter int DataWords   = 2048,
  parameter int LineBytes   = 16,
  parameter int MemIdW      = 2,
  parameter bit HasFpu      = 1'b0,
  parameter int NumLanes    = 32,
  parameter int FpLanes     = NumLanes,
  parameter bit FastThreadTargets = 1'b0,
  parameter bit IssueBypass = 1'b0,
  parameter     BarRamStyle = "auto",
  parameter int BaudDiv     = 217,   // 25 MHz / 115200
  parameter int MaxBurst    = 64,
  parameter int TimeoutBits = 2000
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic uart_rx_i,
  output logic uart_tx_o,
  output logic busy_o,
  output logic done_o,
  output logic fault_o,
  output logic exc_o,
  output logic link_err_o   // one cycle: a frame was answered with an error
);

  logic        host_valid, host_ready, host_we, host_rvalid;
  logic [15:0] host_addr;
  logic [31:0] host_wdata, host_rdata;

  simt_uart_bridge #(
    .MaxBurst    (MaxBurst),
    .TimeoutBits (TimeoutBits)
  ) u_bridge (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .baud_div_i    (16'(BaudDiv)),
    .rx_i          (uart_rx_i),
    .tx_o          (uart_tx_o),
    .host_valid_o  (host_valid),
    .host_ready_i  (host_ready),
    .host_we_o     (host_we),
    .host_addr_o   (host_addr),
    .host_wdata_o  (host_wdata),
    .host_rvalid_i (host_rvalid),
    .host_rdata_i  (host_rdata),
    .err_o         (link_err_o)
  );

  simt_fpga_top #(
    .NumWarps    (NumWarps),
    .NumCtas     (NumCtas),
    .CtaWarps    (CtaWarps),
    .QueueDepth  (QueueDepth),
    .NumBarSlots (NumBarSlots),
    .ImemDepth   (ImemDepth),
    .ParamWords  (ParamWords),
    .SharedWords (SharedWords),
    .DataWords   (DataWords),
    .LineBytes   (LineBytes),
    .MemIdW      (MemIdW),
    .HasFpu      (HasFpu),
    .NumLanes    (NumLanes),
    .FpLanes     (FpLanes),
    .FastThreadTargets (FastThreadTargets),
    .IssueBypass       (IssueBypass),
    .BarRamStyle (BarRamStyle)
  ) u_top (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .host_valid_i  (host_valid),
    .host_ready_o  (host_ready),
    .host_we_i     (host_we),
    .host_addr_i   (host_addr),
    .host_wdata_i  (host_wdata),
    .host_rvalid_o (host_rvalid),
    .host_rdata_o  (host_rdata),
    .busy_o        (busy_o),
    .done_o        (done_o),
    .fault_o       (fault_o),
    .exc_o         (exc_o)
  );

`ifdef VERILATOR
  initial begin
    assert (BaudDiv >= 4 && BaudDiv < 65536) else $error("fpga_uart_top: BaudDiv out of 4..65535");
  end
`endif

endmodule

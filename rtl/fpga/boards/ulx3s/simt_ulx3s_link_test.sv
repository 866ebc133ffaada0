// The ULX3S board's serial link without the core (simt_ulx3s_top, WithCore 0): the UART
// bridge (docs/blocks/uart_bridge.md) in front of a DataWords-word block RAM that answers
// every host address (the address modulo DataWords), so word and burst reads and writes,
// the CRC and the error answers can be tried on a board while the core does not fit it.
module simt_ulx3s_link_test #(
  parameter int  DataWords = 1024,
  parameter int  BaudDiv   = 434,
  localparam int AddrW     = $clog2(DataWords)
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic uart_rx_i,
  output logic uart_tx_o,
  output logic link_err_o
);

  logic        host_valid, host_we;
  logic [15:0] host_addr;
  logic [31:0] host_wdata, host_rdata;
  logic        rvalid_d, rvalid_q;
  logic        unused_addr;

  assign unused_addr = ^host_addr[15:AddrW];   // the memory wraps

  simt_uart_bridge u_bridge (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .baud_div_i    (16'(BaudDiv)),
    .rx_i          (uart_rx_i),
    .tx_o          (uart_tx_o),
    .host_valid_o  (host_valid),
    .host_ready_i  (1'b1),
    .host_we_o     (host_we),
    .host_addr_o   (host_addr),
    .host_wdata_o  (host_wdata),
    .host_rvalid_i (rvalid_q),
    .host_rdata_i  (host_rdata),
    .err_o         (link_err_o)
  );

  // One access per cycle: a write or a read, never both, so the RAM's read never meets its
  // write to the same address.
  simt_ram_1r1w #(
    .Width (32),
    .Depth (DataWords)
  ) u_mem (
    .clk_i   (clk_i),
    .we_i    (host_valid && host_we),
    .waddr_i (host_addr[AddrW-1:0]),
    .wdata_i (host_wdata),
    .re_i    (host_valid && !host_we),
    .raddr_i (host_addr[AddrW-1:0]),
    .rdata_o (host_rdata)
  );

  assign rvalid_d = host_valid && !host_we;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rvalid_q <= 1'b0;
    end else begin
      rvalid_q <= rvalid_d;
    end
  end

endmodule
